/* The few C library calls FreeRTOS's demo files use, for the harness (freestanding). */
#ifndef DEMO_MATH_H
#define DEMO_MATH_H
static inline double fabs(double x)
{
	return x < 0 ? -x : x;
}
#endif
