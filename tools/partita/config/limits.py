"""Kernel limits the configuration is checked against (mirrors of the kernel's constants).

Temporary home: the limits header issue replaces this module with the single generated
`partita.limits`; keep the names the same as the C macros.
"""

PT_MAX_THREADS = 128
PT_MAX_SEMS = 64
PT_MAX_MUTEXES = 64
PT_MAX_MQS = 32
PT_MQ_POOL_BYTES = 16384
