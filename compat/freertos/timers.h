/* FreeRTOS software timers on Partita: not implemented yet (docs/compat.md). */
#ifndef INC_TIMERS_H
#define INC_TIMERS_H
#error "timers.h: FreeRTOS software timers are not implemented on Partita yet (docs/compat.md, Not yet implemented)"
#endif
