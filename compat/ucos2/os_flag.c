/*
 * Event flag groups (docs/compat.md, "µC/OS-II"): a post readies every waiting task whose
 * condition (all/any of its flags set/clear) now holds; a task that asked to consume clears
 * the flags that readied it when it runs again, as µC/OS-II does.
 */
#include "os_internal.h"

static OS_FLAG_GRP grp_pool[OS_MAX_FLAGS];

OS_FLAG_GRP *OSFlagCreate(OS_FLAGS flags, INT8U *perr)
{
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_CREATE_ISR;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	OS_FLAG_GRP *g = 0;
	for (int i = 0; i < (int)(OS_MAX_FLAGS) && !g; i++)
		if (grp_pool[i].OSFlagType != OS_EVENT_TYPE_FLAG)
			g = &grp_pool[i];
	if (g) {
		*g = (OS_FLAG_GRP){.OSFlagType = OS_EVENT_TYPE_FLAG, .OSFlagFlags = flags};
		g->OSFlagName[0] = '?';
	}
	os_exit(me);
	*perr = g ? OS_ERR_NONE : OS_ERR_FLAG_GRP_DEPLETED;
	return g;
}

/* The flags of `want` that satisfy wait type `type` now, or 0 when the condition fails;
 * *bad on an unknown wait type. */
static OS_FLAGS ready_flags(OS_FLAGS have, OS_FLAGS want, INT8U type, int *bad)
{
	OS_FLAGS r;
	*bad = 0;
	switch (type) {
	case OS_FLAG_WAIT_SET_ALL:
		r = have & want;
		return r == want ? r : 0;
	case OS_FLAG_WAIT_SET_ANY:
		return have & want;
	case OS_FLAG_WAIT_CLR_ALL:
		r = (OS_FLAGS)~have & want;
		return r == want ? r : 0;
	case OS_FLAG_WAIT_CLR_ANY:
		return (OS_FLAGS)~have & want;
	default:
		*bad = 1;
		return 0;
	}
}

static void consume(OS_FLAG_GRP *g, OS_FLAGS rdy, INT8U type)
{
	if (type == OS_FLAG_WAIT_SET_ALL || type == OS_FLAG_WAIT_SET_ANY)
		g->OSFlagFlags &= (OS_FLAGS)~rdy;
	else
		g->OSFlagFlags |= rdy;
}

OS_FLAGS OSFlagPend(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U wait_type, INT32U timeout, INT8U *perr)
{
	if (!pgrp) {
		*perr = OS_ERR_FLAG_INVALID_PGRP;
		return 0;
	}
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_PEND_ISR;
		return 0;
	}
	if (OSLockNesting > 0u) {
		*perr = OS_ERR_PEND_LOCKED;
		return 0;
	}
	if (pgrp->OSFlagType != OS_EVENT_TYPE_FLAG) {
		*perr = OS_ERR_EVENT_TYPE;
		return 0;
	}
	int use = (wait_type & OS_FLAG_CONSUME) != 0, bad;
	wait_type &= (INT8U)~OS_FLAG_CONSUME;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_FLAGS rdy = ready_flags(pgrp->OSFlagFlags, flags, wait_type, &bad);
	if (bad) {
		os_exit(me);
		*perr = OS_ERR_FLAG_WAIT_TYPE;
		return 0;
	}
	if (rdy) {
		if (use)
			consume(pgrp, rdy, wait_type);
		me->OSTCBFlagsRdy = rdy;
		os_exit(me);
		*perr = OS_ERR_NONE;
		return rdy;
	}
	me->OSTCBStat |= OS_STAT_FLAG;
	me->OSTCBFlagsWait = flags;
	me->OSTCBFlagWaitType = wait_type;
	me->OSTCBFlagsRdy = 0;
	me->OSTCBFlagGrp = pgrp;
	os_bit_set(pgrp->OSFlagWaitTbl, me->OSTCBPrio);
	os_block(me, timeout);
	*perr = os_pend_result(me);
	rdy = 0;
	if (*perr == OS_ERR_NONE) {
		rdy = me->OSTCBFlagsRdy;
		if (use) {
			os_enter(me);
			consume(pgrp, rdy, wait_type);
			os_exit(me);
		}
	}
	return rdy;
}

OS_FLAGS OSFlagPost(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U opt, INT8U *perr)
{
	if (!pgrp) {
		*perr = OS_ERR_FLAG_INVALID_PGRP;
		return 0;
	}
	if (pgrp->OSFlagType != OS_EVENT_TYPE_FLAG) {
		*perr = OS_ERR_EVENT_TYPE;
		return 0;
	}
	if (opt != OS_FLAG_CLR && opt != OS_FLAG_SET) {
		*perr = OS_ERR_FLAG_INVALID_OPT;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if (opt == OS_FLAG_SET)
		pgrp->OSFlagFlags |= flags;
	else
		pgrp->OSFlagFlags &= (OS_FLAGS)~flags;
	uint64_t w[OS_EVENT_TBL_SIZE];
	for (unsigned i = 0; i < OS_EVENT_TBL_SIZE; i++)
		w[i] = pgrp->OSFlagWaitTbl[i];
	for (int p; (p = os_bit_first(w)) >= 0;) {
		os_bit_clr(w, (unsigned)p);
		OS_TCB *t = OSTCBPrioTbl[p];
		int bad;
		OS_FLAGS rdy = ready_flags(pgrp->OSFlagFlags, t->OSTCBFlagsWait, t->OSTCBFlagWaitType, &bad);
		if (rdy) {
			t->OSTCBFlagsRdy = rdy;
			os_ready(t, 0, OS_STAT_PEND_OK);
		}
	}
	OS_FLAGS now = pgrp->OSFlagFlags;
	os_exit(me); /* readied tasks of higher priority run now */
	*perr = OS_ERR_NONE;
	return now;
}

OS_FLAGS OSFlagAccept(OS_FLAG_GRP *pgrp, OS_FLAGS flags, INT8U wait_type, INT8U *perr)
{
	if (!pgrp) {
		*perr = OS_ERR_FLAG_INVALID_PGRP;
		return 0;
	}
	if (pgrp->OSFlagType != OS_EVENT_TYPE_FLAG) {
		*perr = OS_ERR_EVENT_TYPE;
		return 0;
	}
	int use = (wait_type & OS_FLAG_CONSUME) != 0, bad;
	wait_type &= (INT8U)~OS_FLAG_CONSUME;
	OS_TCB *me = os_me();
	os_enter(me);
	OS_FLAGS rdy = ready_flags(pgrp->OSFlagFlags, flags, wait_type, &bad);
	if (rdy && use)
		consume(pgrp, rdy, wait_type);
	os_exit(me);
	*perr = bad ? OS_ERR_FLAG_WAIT_TYPE : rdy ? OS_ERR_NONE : OS_ERR_FLAG_NOT_RDY;
	return rdy;
}

OS_FLAG_GRP *OSFlagDel(OS_FLAG_GRP *pgrp, INT8U opt, INT8U *perr)
{
	if (!pgrp) {
		*perr = OS_ERR_FLAG_INVALID_PGRP;
		return pgrp;
	}
	if (OSIntNesting > 0u) {
		*perr = OS_ERR_DEL_ISR;
		return pgrp;
	}
	if (pgrp->OSFlagType != OS_EVENT_TYPE_FLAG) {
		*perr = OS_ERR_EVENT_TYPE;
		return pgrp;
	}
	if (opt != OS_DEL_NO_PEND && opt != OS_DEL_ALWAYS) {
		*perr = OS_ERR_INVALID_OPT;
		return pgrp;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	if (os_bit_first(pgrp->OSFlagWaitTbl) >= 0 && opt == OS_DEL_NO_PEND) {
		os_exit(me);
		*perr = OS_ERR_TASK_WAITING;
		return pgrp;
	}
	for (int p; (p = os_bit_first(pgrp->OSFlagWaitTbl)) >= 0;)
		os_ready(OSTCBPrioTbl[p], 0, OS_STAT_PEND_ABORT);
	pgrp->OSFlagType = OS_EVENT_TYPE_UNUSED;
	pgrp->OSFlagFlags = 0;
	os_exit(me);
	*perr = OS_ERR_NONE;
	return 0;
}

OS_FLAGS OSFlagQuery(OS_FLAG_GRP *pgrp, INT8U *perr)
{
	if (!pgrp) {
		*perr = OS_ERR_FLAG_INVALID_PGRP;
		return 0;
	}
	if (pgrp->OSFlagType != OS_EVENT_TYPE_FLAG) {
		*perr = OS_ERR_EVENT_TYPE;
		return 0;
	}
	*perr = OS_ERR_NONE;
	return pgrp->OSFlagFlags;
}

OS_FLAGS OSFlagPendGetFlagsRdy(void)
{
	return os_me()->OSTCBFlagsRdy;
}
