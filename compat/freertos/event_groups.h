/* FreeRTOS event groups on Partita: not implemented yet (docs/compat.md). */
#ifndef EVENT_GROUPS_H
#define EVENT_GROUPS_H
#error "event_groups.h: FreeRTOS event groups are not implemented on Partita yet (docs/compat.md, Not yet implemented)"
#endif
