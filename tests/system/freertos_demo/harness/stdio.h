/* The few C library calls FreeRTOS's demo files use, for the harness (freestanding). */
#ifndef DEMO_STDIO_H
#define DEMO_STDIO_H
#include <stddef.h>
int sprintf(char *s, const char *fmt, ...);
#endif
