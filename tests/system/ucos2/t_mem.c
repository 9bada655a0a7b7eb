/* Memory partitions: create (and its errors), get until exhausted, put until full, query. */
#include "uctest.h"

static uint64_t area[8][4]; /* 8 blocks of 32 bytes */

void uc_test_mem(void)
{
	INT8U err;
	OS_MEM_DATA md;
	OSMemCreate(0, 8, 32, &err);
	UC_EQ("mem_create_null", err, OS_ERR_MEM_INVALID_ADDR);
	OSMemCreate((uint8_t *)area + 1, 8, 32, &err);
	UC_EQ("mem_create_misaligned", err, OS_ERR_MEM_INVALID_ADDR);
	OSMemCreate(area, 1, 32, &err);
	UC_EQ("mem_create_one_block", err, OS_ERR_MEM_INVALID_BLKS);
	OSMemCreate(area, 8, 4, &err);
	UC_EQ("mem_create_small_block", err, OS_ERR_MEM_INVALID_SIZE);
	OS_MEM *m = OSMemCreate(area, 8, 32, &err);
	UC_EQ("mem_create", err, OS_ERR_NONE);
	void *b[9];
	int n = 0, distinct = 1;
	for (; n < 9; n++) {
		b[n] = OSMemGet(m, &err);
		if (!b[n])
			break;
		for (int i = 0; i < n; i++)
			distinct &= b[i] != b[n];
		distinct &= (uint8_t *)b[n] >= (uint8_t *)area && (uint8_t *)b[n] < (uint8_t *)area + sizeof area;
	}
	uc_check("mem_get_all", n == 8 && distinct, n);
	UC_EQ("mem_no_free_blks", err, OS_ERR_MEM_NO_FREE_BLKS);
	OSMemQuery(m, &md);
	uc_check("mem_query", md.OSNFree == 0 && md.OSNUsed == 8 && md.OSBlkSize == 32 && md.OSNBlks == 8 &&
		 md.OSAddr == area, md.OSNUsed);
	for (int i = 0; i < 8; i++)
		OSMemPut(m, b[i]);
	UC_EQ("mem_put_full", OSMemPut(m, b[0]), OS_ERR_MEM_FULL);
	UC_EQ("mem_get_after_put", OSMemGet(m, &err) == b[7], 1);
	UC_EQ("mem_put_null_blk", OSMemPut(m, 0), OS_ERR_MEM_INVALID_PBLK);
	UC_EQ("mem_put_null_pmem", OSMemPut(0, b[0]), OS_ERR_MEM_INVALID_PMEM);
	OSMemGet(0, &err);
	UC_EQ("mem_get_null_pmem", err, OS_ERR_MEM_INVALID_PMEM);
	UC_EQ("mem_query_null_pdata", OSMemQuery(m, 0), OS_ERR_MEM_INVALID_PDATA);
}
