/*
 * Fixed-size memory partitions (docs/compat.md, "µC/OS-II"): a free list threaded through the
 * application's own blocks, changed under the layer's lock; nothing blocks.
 */
#include "os_internal.h"

static OS_MEM part_pool[OS_MAX_MEM_PART];
static uint8_t part_used[OS_MAX_MEM_PART];

OS_MEM *OSMemCreate(void *addr, INT32U nblks, INT32U blksize, INT8U *perr)
{
	if (!addr || ((uintptr_t)addr & (sizeof(void *) - 1u))) {
		*perr = OS_ERR_MEM_INVALID_ADDR;
		return 0;
	}
	if (nblks < 2u) {
		*perr = OS_ERR_MEM_INVALID_BLKS;
		return 0;
	}
	if (blksize < sizeof(void *)) {
		*perr = OS_ERR_MEM_INVALID_SIZE;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	int i = 0;
	while (i < (int)(OS_MAX_MEM_PART) && part_used[i])
		i++;
	if (i == (int)(OS_MAX_MEM_PART)) {
		os_exit(me);
		*perr = OS_ERR_MEM_INVALID_PART;
		return 0;
	}
	part_used[i] = 1;
	OS_MEM *m = &part_pool[i];
	/* each free block's first word links to the next */
	uint8_t *b = addr;
	for (INT32U k = 0; k + 1u < nblks; k++)
		*(void **)(void *)(b + (uint64_t)k * blksize) = b + (uint64_t)(k + 1u) * blksize;
	*(void **)(void *)(b + (uint64_t)(nblks - 1u) * blksize) = 0;
	m->OSMemAddr = addr;
	m->OSMemFreeList = addr;
	m->OSMemBlkSize = blksize;
	m->OSMemNBlks = nblks;
	m->OSMemNFree = nblks;
	m->OSMemName[0] = '?';
	m->OSMemName[1] = 0;
	os_exit(me);
	*perr = OS_ERR_NONE;
	return m;
}

void *OSMemGet(OS_MEM *pmem, INT8U *perr)
{
	if (!pmem) {
		*perr = OS_ERR_MEM_INVALID_PMEM;
		return 0;
	}
	OS_TCB *me = os_me();
	os_enter(me);
	void *b = 0;
	if (pmem->OSMemNFree > 0u) {
		b = pmem->OSMemFreeList;
		pmem->OSMemFreeList = *(void **)b;
		pmem->OSMemNFree--;
	}
	os_exit(me);
	*perr = b ? OS_ERR_NONE : OS_ERR_MEM_NO_FREE_BLKS;
	return b;
}

INT8U OSMemPut(OS_MEM *pmem, void *pblk)
{
	if (!pmem)
		return OS_ERR_MEM_INVALID_PMEM;
	if (!pblk)
		return OS_ERR_MEM_INVALID_PBLK;
	OS_TCB *me = os_me();
	os_enter(me);
	if (pmem->OSMemNFree >= pmem->OSMemNBlks) {
		os_exit(me);
		return OS_ERR_MEM_FULL;
	}
	*(void **)pblk = pmem->OSMemFreeList;
	pmem->OSMemFreeList = pblk;
	pmem->OSMemNFree++;
	os_exit(me);
	return OS_ERR_NONE;
}

INT8U OSMemQuery(OS_MEM *pmem, OS_MEM_DATA *p_mem_data)
{
	if (!pmem)
		return OS_ERR_MEM_INVALID_PMEM;
	if (!p_mem_data)
		return OS_ERR_MEM_INVALID_PDATA;
	OS_TCB *me = os_me();
	os_enter(me);
	p_mem_data->OSAddr = pmem->OSMemAddr;
	p_mem_data->OSFreeList = pmem->OSMemFreeList;
	p_mem_data->OSBlkSize = pmem->OSMemBlkSize;
	p_mem_data->OSNBlks = pmem->OSMemNBlks;
	p_mem_data->OSNFree = pmem->OSMemNFree;
	p_mem_data->OSNUsed = pmem->OSMemNBlks - pmem->OSMemNFree;
	os_exit(me);
	return OS_ERR_NONE;
}
