/* The few C library calls FreeRTOS's demo files use, for the harness (freestanding). */
#ifndef DEMO_STDLIB_H
#define DEMO_STDLIB_H
#include <stddef.h>
int rand(void);
#endif
