/*
 * Partita scheduler coprocessor: an emulated memory-mapped device that keeps the thread tables
 * and ready queues of fixed-priority schedulers and answers "which thread next?" in one load
 * (RT-SHADOWS' scheduler coprocessor, emulated in QEMU instead of built in an FPGA).
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 * Copyright (c) 2026 the Partita authors
 *
 * Attachment: a bus-less device that maps itself at its `addr` property, so the riscv `virt`
 * machine needs no change:
 *     -device partita-sched,addr=0x10200000[,instances=N][,high-first=on]
 * Realize refuses a range that overlaps anything already mapped.
 *
 * An instance is one scheduler (one ready structure: a hart, or a cluster); each has its own
 * 256 thread slots (tid 0..255, chosen by the guest), command, status and result registers,
 * so clients of different instances never share a register.
 *
 * Register map (little endian; offsets from addr; 64 KiB; i = instance, t = tid):
 *   0x000 ID          r  32  0x50545343 ("PTSC")
 *   0x004 VERSION     r  32  1
 *   0x008 CONFIG      r  32  [15:0] threads per instance (256), [23:16] instances
 *   0x00c CTRL        rw 32  [0] ORDER: 0 = priority 0 is the highest, 1 = 255 is the highest
 *                            (accepted only while no thread exists); [1] RESET (write 1: delete
 *                            every thread, clear the counters; reads 0)
 *   0x010 ERR_WHERE   r  32  the first error since the last clear: [15:0] register offset,
 *                            [23:16] error code
 *   0x014 ERRORS      rw 32  failed commands and bad accesses; a write clears it, ERR_WHERE and
 *                            ERR_VALUE
 *   0x018 ERR_VALUE   r  64  the value written by the first failed store (the command word)
 *   0x020 COMMANDS    r  64  commands executed (failed ones included)
 *   0x100 + 8i NEXT[i]     r 32/64  the highest-priority ready thread of instance i (head of
 *                            its best level: FIFO among equals), 0xffff if none; no side effect
 *   0x180 + 8i NEXT_RR[i]  r 32/64  the same thread, which then goes behind its equals: loads
 *                            in a row go round robin among the threads of the top priority
 *   0x200 + 8i CMD[i]      w 64  one 8-byte store = one command (below); other sizes: error
 *   0x280 + 8i STATUS[i]   r 32  [7:0] error of the instance's last command (0: done),
 *                            [15:8] its opcode
 *   0x300 + 8i RESULT[i]   r 64  the value read by the instance's last GET_ATTR
 *   0x380 + 8i NREADY[i]   r 32  threads in the instance's ready set
 *   0x1000 + 0x800i + 8t THREAD[i][t]  r 64  [7:0] prio, [15:8] state, [23:16] level,
 *                            [63:32] tag; 0 for a free slot
 *
 * Command word: [7:0] op, [15:8] tid, [23:16] prio (CREATE, SET_PRIO) or attribute (GET_ATTR,
 * SET_ATTR), [31:24] state (CREATE), [63:32] value (CREATE: tag, SET_ATTR: the new value).
 * Opcodes, states and attributes are those of kernel/include/partita/coproc_sched.h:
 *   1 CREATE      a free tid with prio, state (2 READY: behind its equals; 1 SUSPENDED) and tag
 *   2 DELETE      frees the tid (leaves the ready set first)
 *   3 SUSPEND     leaves the ready set (no-op if not in it)
 *   4 RESUME      joins the ready set behind its equals (no-op if in it)
 *   5 RESUME_HEAD joins it ahead of its equals (a preempted thread keeps its place)
 *   6 SET_PRIO    a ready thread goes behind its new equals
 *   7 GET_ATTR    attribute 0 PRIO, 1 STATE, 2 TAG, 3 LEVEL (0 = most urgent) into RESULT[i]
 *                 (STATE of a free tid reads 0 = FREE; the others are errors)
 *   8 SET_ATTR    PRIO as SET_PRIO, STATE as SUSPEND / RESUME, TAG any; LEVEL is read-only
 *   9 YIELD       a ready thread goes behind its equals (round robin)
 * Errors (STATUS[7:0]): 1 bad opcode, 3 tid in use, 4 no such thread, 5 bad state, 6 bad or
 * read-only attribute, 7 bad access (size, offset, direction), 8 order changed while threads
 * exist, 9 priority out of range. A failed command changes nothing but the error registers.
 *
 * Timing: the device does its work inside QEMU's memory-access callback, so under -icount a
 * command or a NEXT read costs the guest exactly its one store or load instruction; the queue
 * operations themselves take no virtual time. Accesses are serialized (QEMU's global lock; under
 * icount one host thread runs every hart), so each command is atomic.
 */
#include "qemu/osdep.h"
#include "qemu/host-utils.h"
#include "qemu/log.h"
#include "qemu/module.h"
#include "qapi/error.h"
#include "exec/address-spaces.h"
#include "exec/memory.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "sysemu/reset.h"

#define TYPE_PARTITA_SCHED "partita-sched"
OBJECT_DECLARE_SIMPLE_TYPE(PartitaSchedState, PARTITA_SCHED)

#define PS_ID 0x50545343u
#define PS_VERSION 1u
#define PS_MMIO_SIZE 0x10000
#define PS_THREADS 256
#define PS_MAX_INSTANCES 16
#define PS_LEVELS 256
#define PS_NIL 0xffffu

enum { R_ID = 0x000, R_VERSION = 0x004, R_CONFIG = 0x008, R_CTRL = 0x00c, R_ERR_WHERE = 0x010,
       R_ERRORS = 0x014, R_ERR_VALUE = 0x018, R_COMMANDS = 0x020, R_NEXT = 0x100,
       R_NEXT_RR = 0x180, R_CMD = 0x200, R_STATUS = 0x280, R_RESULT = 0x300, R_NREADY = 0x380,
       R_THREAD = 0x1000, THREAD_STRIDE = 0x800 };
enum { CTRL_ORDER = 1u << 0, CTRL_RESET = 1u << 1 };
enum { OP_CREATE = 1, OP_DELETE, OP_SUSPEND, OP_RESUME, OP_RESUME_HEAD, OP_SET_PRIO,
       OP_GET_ATTR, OP_SET_ATTR, OP_YIELD };
enum { ST_FREE = 0, ST_SUSPENDED = 1, ST_READY = 2 };
enum { A_PRIO = 0, A_STATE = 1, A_TAG = 2, A_LEVEL = 3 };
enum { E_OK = 0, E_OP = 1, E_IN_USE = 3, E_NO_THREAD = 4, E_STATE = 5, E_ATTR = 6,
       E_ACCESS = 7, E_ORDER = 8, E_PRIO = 9 };

typedef struct {
    uint8_t state;       /* ST_*: ST_FREE marks an unused slot; ST_READY <=> in the queue */
    uint8_t prio;        /* as the guest numbers it; the level depends on CTRL.ORDER */
    uint16_t prev, next; /* the level's FIFO, PS_NIL-terminated */
    uint32_t tag;
} PSThread;

typedef struct {
    PSThread t[PS_THREADS];
    uint64_t nonempty[PS_LEVELS / 64]; /* bit l set <=> head[l] != PS_NIL */
    uint16_t head[PS_LEVELS], tail[PS_LEVELS];
    uint32_t nready, live;
    uint32_t status;
    uint64_t result;
} PSInstance;

struct PartitaSchedState {
    DeviceState parent_obj;
    MemoryRegion mmio;
    uint64_t addr;
    uint32_t instances;
    bool high_first; /* reset value of CTRL.ORDER */

    uint32_t ctrl, err_where, errors;
    uint64_t err_value, commands;
    PSInstance in[PS_MAX_INSTANCES];
};

/* Level 0 is served first, whatever the guest's priority numbering. */
static unsigned ps_level(const PartitaSchedState *s, unsigned prio)
{
    return (s->ctrl & CTRL_ORDER) ? PS_LEVELS - 1 - prio : prio;
}

static void ps_enqueue(PartitaSchedState *s, PSInstance *in, unsigned tid, bool at_head)
{
    PSThread *th = &in->t[tid];
    unsigned l = ps_level(s, th->prio);

    if (in->head[l] == PS_NIL) {
        th->prev = th->next = PS_NIL;
        in->head[l] = in->tail[l] = tid;
        in->nonempty[l / 64] |= 1ull << (l % 64);
    } else if (at_head) {
        th->prev = PS_NIL;
        th->next = in->head[l];
        in->t[in->head[l]].prev = tid;
        in->head[l] = tid;
    } else {
        th->next = PS_NIL;
        th->prev = in->tail[l];
        in->t[in->tail[l]].next = tid;
        in->tail[l] = tid;
    }
    th->state = ST_READY;
    in->nready++;
}

static void ps_dequeue(PartitaSchedState *s, PSInstance *in, unsigned tid)
{
    PSThread *th = &in->t[tid];
    unsigned l = ps_level(s, th->prio);

    if (th->state != ST_READY) {
        return;
    }
    if (th->prev != PS_NIL) {
        in->t[th->prev].next = th->next;
    } else {
        in->head[l] = th->next;
    }
    if (th->next != PS_NIL) {
        in->t[th->next].prev = th->prev;
    } else {
        in->tail[l] = th->prev;
    }
    if (in->head[l] == PS_NIL) {
        in->nonempty[l / 64] &= ~(1ull << (l % 64));
    }
    th->prev = th->next = PS_NIL;
    th->state = ST_SUSPENDED;
    in->nready--;
}

/* The head of the best non-empty level, or PS_NIL. */
static unsigned ps_peek(const PSInstance *in)
{
    for (unsigned w = 0; w < PS_LEVELS / 64; w++) {
        if (in->nonempty[w]) {
            return in->head[w * 64 + ctz64(in->nonempty[w])];
        }
    }
    return PS_NIL;
}

/* New priority (or the same one: a rotation): a ready thread goes behind its new equals. */
static void ps_set_prio(PartitaSchedState *s, PSInstance *in, unsigned tid, unsigned prio)
{
    PSThread *th = &in->t[tid];
    bool ready = th->state == ST_READY;

    ps_dequeue(s, in, tid);
    th->prio = prio;
    if (ready) {
        ps_enqueue(s, in, tid, false);
    }
}

static void ps_clear(PartitaSchedState *s)
{
    for (unsigned i = 0; i < PS_MAX_INSTANCES; i++) {
        PSInstance *in = &s->in[i];

        memset(in, 0, sizeof(*in));
        for (unsigned l = 0; l < PS_LEVELS; l++) {
            in->head[l] = in->tail[l] = PS_NIL;
        }
    }
    s->err_where = s->errors = 0;
    s->err_value = s->commands = 0;
}

static void ps_reset(void *opaque)
{
    PartitaSchedState *s = opaque;

    ps_clear(s);
    s->ctrl = s->high_first ? CTRL_ORDER : 0;
}

static bool ps_any_thread(const PartitaSchedState *s)
{
    for (unsigned i = 0; i < s->instances; i++) {
        if (s->in[i].live) {
            return true;
        }
    }
    return false;
}

static void ps_fail(PartitaSchedState *s, hwaddr off, uint64_t value, unsigned err)
{
    if (s->errors++ == 0) {
        s->err_where = (uint32_t)off | err << 16;
        s->err_value = value;
    }
    qemu_log_mask(LOG_GUEST_ERROR, "partita-sched: access at 0x%" HWADDR_PRIx
                  " (value 0x%" PRIx64 ") failed: error %u\n", off, value, err);
}

static unsigned ps_command(PartitaSchedState *s, PSInstance *in, uint64_t cmd)
{
    unsigned op = cmd & 0xff, tid = (cmd >> 8) & 0xff, arg = (cmd >> 16) & 0xff;
    unsigned state = (cmd >> 24) & 0xff;
    uint32_t value = cmd >> 32;
    PSThread *th = &in->t[tid];

    if (op < OP_CREATE || op > OP_YIELD) {
        return E_OP;
    }
    if (op == OP_CREATE) {
        if (th->state != ST_FREE) {
            return E_IN_USE;
        }
        if (state != ST_READY && state != ST_SUSPENDED) {
            return E_STATE;
        }
        th->prio = arg;
        th->tag = value;
        th->state = ST_SUSPENDED;
        th->prev = th->next = PS_NIL;
        in->live++;
        if (state == ST_READY) {
            ps_enqueue(s, in, tid, false);
        }
        return E_OK;
    }
    if (th->state == ST_FREE) {
        /* The state of any slot can be read (FREE): how a client finds a free tid. */
        if (op == OP_GET_ATTR && arg == A_STATE) {
            in->result = ST_FREE;
            return E_OK;
        }
        return E_NO_THREAD;
    }
    switch (op) {
    case OP_DELETE:
        ps_dequeue(s, in, tid);
        th->state = ST_FREE;
        in->live--;
        return E_OK;
    case OP_SUSPEND:
        ps_dequeue(s, in, tid);
        return E_OK;
    case OP_RESUME:
    case OP_RESUME_HEAD:
        if (th->state != ST_READY) {
            ps_enqueue(s, in, tid, op == OP_RESUME_HEAD);
        }
        return E_OK;
    case OP_SET_PRIO:
        ps_set_prio(s, in, tid, arg);
        return E_OK;
    case OP_YIELD:
        ps_set_prio(s, in, tid, th->prio);
        return E_OK;
    case OP_GET_ATTR:
        switch (arg) {
        case A_PRIO:
            in->result = th->prio;
            return E_OK;
        case A_STATE:
            in->result = th->state;
            return E_OK;
        case A_TAG:
            in->result = th->tag;
            return E_OK;
        case A_LEVEL:
            in->result = ps_level(s, th->prio);
            return E_OK;
        }
        return E_ATTR;
    case OP_SET_ATTR:
        switch (arg) {
        case A_PRIO:
            if (value >= PS_LEVELS) {
                return E_PRIO;
            }
            ps_set_prio(s, in, tid, value);
            return E_OK;
        case A_STATE:
            if (value == ST_SUSPENDED) {
                ps_dequeue(s, in, tid);
            } else if (value == ST_READY) {
                if (th->state != ST_READY) {
                    ps_enqueue(s, in, tid, false);
                }
            } else {
                return E_STATE;
            }
            return E_OK;
        case A_TAG:
            th->tag = value;
            return E_OK;
        }
        return E_ATTR;
    }
    g_assert_not_reached();
}

static uint64_t ps_thread_word(const PartitaSchedState *s, const PSThread *th)
{
    if (th->state == ST_FREE) {
        return 0;
    }
    return th->prio | (uint64_t)th->state << 8 | (uint64_t)ps_level(s, th->prio) << 16 |
           (uint64_t)th->tag << 32;
}

/* Instance i of a per-instance register bank at `base` (8-byte stride), or -1. */
static int ps_bank(const PartitaSchedState *s, hwaddr off, hwaddr base)
{
    if (off < base || off >= base + 8 * s->instances || off % 8) {
        return -1;
    }
    return (off - base) / 8;
}

static uint64_t ps_read(void *opaque, hwaddr off, unsigned size)
{
    PartitaSchedState *s = opaque;
    unsigned tid;
    int i;

    if ((i = ps_bank(s, off, R_NEXT)) >= 0) {
        return ps_peek(&s->in[i]);
    }
    if ((i = ps_bank(s, off, R_NEXT_RR)) >= 0) {
        tid = ps_peek(&s->in[i]);
        if (tid != PS_NIL) {
            ps_set_prio(s, &s->in[i], tid, s->in[i].t[tid].prio);
        }
        return tid;
    }
    if ((i = ps_bank(s, off, R_STATUS)) >= 0 && size == 4) {
        return s->in[i].status;
    }
    if ((i = ps_bank(s, off, R_RESULT)) >= 0 && size == 8) {
        return s->in[i].result;
    }
    if ((i = ps_bank(s, off, R_NREADY)) >= 0 && size == 4) {
        return s->in[i].nready;
    }
    if (off >= R_THREAD && off < R_THREAD + THREAD_STRIDE * s->instances && off % 8 == 0 &&
        size == 8) {
        i = (off - R_THREAD) / THREAD_STRIDE;
        tid = (off - R_THREAD) % THREAD_STRIDE / 8;
        return ps_thread_word(s, &s->in[i].t[tid]);
    }
    if (size == 4) {
        switch (off) {
        case R_ID:
            return PS_ID;
        case R_VERSION:
            return PS_VERSION;
        case R_CONFIG:
            return PS_THREADS | s->instances << 16;
        case R_CTRL:
            return s->ctrl;
        case R_ERR_WHERE:
            return s->err_where;
        case R_ERRORS:
            return s->errors;
        }
    } else {
        switch (off) {
        case R_ERR_VALUE:
            return s->err_value;
        case R_COMMANDS:
            return s->commands;
        }
    }
    ps_fail(s, off, 0, E_ACCESS);
    return 0;
}

static void ps_write(void *opaque, hwaddr off, uint64_t value, unsigned size)
{
    PartitaSchedState *s = opaque;
    unsigned err;
    int i;

    if ((i = ps_bank(s, off, R_CMD)) >= 0 && size == 8) {
        s->commands++;
        err = ps_command(s, &s->in[i], value);
        s->in[i].status = err | (value & 0xff) << 8;
        if (err != E_OK) {
            ps_fail(s, off, value, err);
        }
        return;
    }
    if (off == R_CTRL && size == 4) {
        if (value & CTRL_RESET) {
            ps_clear(s);
        }
        if ((value & CTRL_ORDER) != (s->ctrl & CTRL_ORDER)) {
            if (ps_any_thread(s)) {
                ps_fail(s, off, value, E_ORDER);
                return;
            }
            s->ctrl = value & CTRL_ORDER;
        }
        return;
    }
    if (off == R_ERRORS && size == 4) {
        s->errors = s->err_where = 0;
        s->err_value = 0;
        return;
    }
    ps_fail(s, off, value, E_ACCESS);
}

static const MemoryRegionOps ps_ops = {
    .read = ps_read,
    .write = ps_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 4, .max_access_size = 8 },
    .impl = { .min_access_size = 4, .max_access_size = 8 },
};

static void ps_realize(DeviceState *dev, Error **errp)
{
    PartitaSchedState *s = PARTITA_SCHED(dev);
    MemoryRegionSection sec;

    if (s->instances < 1 || s->instances > PS_MAX_INSTANCES) {
        error_setg(errp, "partita-sched: instances=%u (1..%u)", s->instances,
                   PS_MAX_INSTANCES);
        return;
    }
    if (s->addr % PS_MMIO_SIZE) {
        error_setg(errp, "partita-sched: addr=0x%" PRIx64 " is not 64 KiB aligned", s->addr);
        return;
    }
    /* Mapping over another device would silently shadow one of them: refuse instead. */
    sec = memory_region_find(get_system_memory(), s->addr, PS_MMIO_SIZE);
    if (sec.mr) {
        error_setg(errp, "partita-sched: addr=0x%" PRIx64 " overlaps '%s'", s->addr,
                   memory_region_name(sec.mr));
        memory_region_unref(sec.mr);
        return;
    }
    memory_region_init_io(&s->mmio, OBJECT(dev), &ps_ops, s, TYPE_PARTITA_SCHED,
                          PS_MMIO_SIZE);
    memory_region_add_subregion(get_system_memory(), s->addr, &s->mmio);
    /* A bus-less device is not in the qbus reset tree: register its reset itself. */
    qemu_register_reset(ps_reset, s);
    ps_reset(s);
}

static Property ps_props[] = {
    DEFINE_PROP_UINT64("addr", PartitaSchedState, addr, 0x10200000),
    DEFINE_PROP_UINT32("instances", PartitaSchedState, instances, 1),
    DEFINE_PROP_BOOL("high-first", PartitaSchedState, high_first, false),
    DEFINE_PROP_END_OF_LIST(),
};

static void ps_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);

    dc->realize = ps_realize;
    dc->desc = "Partita scheduler coprocessor (memory-mapped, fixed priority)";
    dc->hotpluggable = false;
    device_class_set_props(dc, ps_props);
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
}

static const TypeInfo ps_info = {
    .name = TYPE_PARTITA_SCHED,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(PartitaSchedState),
    .class_init = ps_class_init,
};

static void ps_register_types(void)
{
    type_register_static(&ps_info);
}

type_init(ps_register_types)
