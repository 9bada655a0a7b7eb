/* Colored physical page allocator; design and invariants in page_alloc.h. */
#include "page_alloc.h"

static inline uint64_t page_index(const struct pt_page_pool *p, uint64_t phys)
{
	return (phys - p->base_phys) >> p->geom.page_shift;
}

static inline uint64_t page_phys(const struct pt_page_pool *p, uint64_t i)
{
	return p->base_phys + (i << p->geom.page_shift);
}

/* Index of a managed, page-aligned address, or -1. */
static int64_t lookup(const struct pt_page_pool *p, uint64_t phys)
{
	uint64_t mask = p->geom.page_bytes - 1;

	if (phys & mask || phys < p->base_phys)
		return -1;
	if (page_index(p, phys) >= p->npages)
		return -1;
	return (int64_t)page_index(p, phys);
}

static inline void take(struct pt_page_pool *p, struct pt_page *pg)
{
	pt_list_del(&pg->node);
	pg->free = 0;
	p->free_count[pg->color]--;
	p->free_total--;
}

static inline void give(struct pt_page_pool *p, struct pt_page *pg)
{
	pt_list_add_head(&p->free_list[pg->color], &pg->node);
	pg->free = 1;
	p->free_count[pg->color]++;
	p->free_total++;
}

uint64_t pt_page_pool_pages(uint64_t base_phys, uint64_t bytes, const struct pt_color_geom *g)
{
	uint64_t mask = (uint64_t)g->page_bytes - 1;
	uint64_t start = (base_phys + mask) & ~mask, end = (base_phys + bytes) & ~mask;

	if (base_phys + bytes < base_phys || end <= start)
		return 0;
	return (end - start) >> g->page_shift;
}

int pt_page_pool_init(struct pt_page_pool *p, uint64_t base_phys, uint64_t bytes,
		      const struct pt_color_geom *geom, struct pt_page *meta, uint64_t meta_count)
{
	uint64_t mask, n;

	if (!geom || geom->colors == 0 || geom->colors > PT_MAX_COLORS || geom->hw_colors == 0 ||
	    geom->page_bytes == 0 || (geom->page_bytes & (geom->page_bytes - 1)) ||
	    (1ull << geom->page_shift) != geom->page_bytes || (geom->hw_colors % geom->colors))
		return PT_PAGE_EINVAL;
	n = pt_page_pool_pages(base_phys, bytes, geom);
	if (!meta || meta_count < n)
		return PT_PAGE_EINVAL;
	mask = (uint64_t)geom->page_bytes - 1;
	/* field by field: a struct copy may become a memcpy call at -Os */
	p->geom.page_bytes = geom->page_bytes;
	p->geom.page_shift = geom->page_shift;
	p->geom.hw_colors = geom->hw_colors;
	p->geom.colors = geom->colors;
	p->geom.sets = geom->sets;
	p->base_phys = (base_phys + mask) & ~mask;
	p->npages = n;
	p->pages = meta;
	p->free_total = 0;
	for (uint32_t c = 0; c < PT_MAX_COLORS; c++) {
		pt_list_init(&p->free_list[c]);
		p->free_count[c] = 0;
	}
	/* Ascending addresses on every list: add at the tail while building. */
	for (uint64_t i = 0; i < n; i++) {
		struct pt_page *pg = &meta[i];

		pg->color = (uint16_t)pt_color_of_pfn(geom, (p->base_phys >> geom->page_shift) + i);
		pg->reserved = 0;
		pg->pad = 0;
		pg->free = 1;
		pt_list_add_tail(&p->free_list[pg->color], &pg->node);
		p->free_count[pg->color]++;
		p->free_total++;
	}
	return PT_PAGE_OK;
}

int pt_page_alloc(struct pt_page_pool *p, uint32_t color, uint64_t *phys_out)
{
	struct pt_page *pg;

	if (color >= p->geom.colors)
		return PT_PAGE_EINVAL;
	if (pt_list_empty(&p->free_list[color]))
		return PT_PAGE_ENOMEM;
	pg = pt_container_of(p->free_list[color].next, struct pt_page, node);
	take(p, pg);
	*phys_out = page_phys(p, (uint64_t)(pg - p->pages));
	return PT_PAGE_OK;
}

int pt_page_alloc_n(struct pt_page_pool *p, uint32_t color, uint64_t n, uint64_t *phys_out)
{
	if (color >= p->geom.colors || n == 0)
		return PT_PAGE_EINVAL;
	if (p->free_count[color] < n)
		return PT_PAGE_ENOMEM;
	for (uint64_t k = 0; k < n; k++)
		(void)pt_page_alloc(p, color, &phys_out[k]); /* cannot fail: counted above */
	return PT_PAGE_OK;
}

int pt_page_alloc_contig(struct pt_page_pool *p, uint64_t n, uint64_t align_pages,
			 uint64_t *phys_out)
{
	uint64_t base_pfn = p->base_phys >> p->geom.page_shift, i;

	if (n == 0 || (align_pages & (align_pages - 1)))
		return PT_PAGE_EINVAL;
	if (align_pages == 0)
		align_pages = 1;
	if (p->free_total < n)
		return PT_PAGE_ENOMEM;
	/* first index whose pfn is aligned */
	i = ((base_pfn + align_pages - 1) & ~(align_pages - 1)) - base_pfn;
	while (i + n <= p->npages) {
		uint64_t j = 0;

		while (j < n && p->pages[i + j].free)
			j++;
		if (j == n) {
			for (j = 0; j < n; j++)
				take(p, &p->pages[i + j]);
			*phys_out = page_phys(p, i);
			return PT_PAGE_OK;
		}
		/* page i + j is taken: the next candidate is the first aligned index after it */
		i = ((base_pfn + i + j + 1 + align_pages - 1) & ~(align_pages - 1)) - base_pfn;
	}
	return PT_PAGE_ENOMEM;
}

/* Check that [phys, phys + n pages) is managed and every page is in the expected state. */
static int check_run(const struct pt_page_pool *p, uint64_t phys, uint64_t n, uint8_t want_free,
		     int64_t *first)
{
	int64_t i = lookup(p, phys);

	if (n == 0)
		return PT_PAGE_EINVAL;
	if (i < 0 || (uint64_t)i + n > p->npages)
		return PT_PAGE_EFOREIGN;
	for (uint64_t k = 0; k < n; k++) {
		const struct pt_page *pg = &p->pages[(uint64_t)i + k];

		if (pg->free != want_free || (!want_free && pg->reserved))
			return want_free ? PT_PAGE_ENOMEM : (pg->reserved ? PT_PAGE_EFOREIGN
									    : PT_PAGE_EDOUBLE);
	}
	*first = i;
	return PT_PAGE_OK;
}

int pt_page_free(struct pt_page_pool *p, uint64_t phys)
{
	return pt_page_free_contig(p, phys, 1);
}

int pt_page_free_contig(struct pt_page_pool *p, uint64_t phys, uint64_t n)
{
	int64_t i;
	int rc = check_run(p, phys, n, 0, &i);

	if (rc != PT_PAGE_OK)
		return rc;
	for (uint64_t k = 0; k < n; k++)
		give(p, &p->pages[(uint64_t)i + k]);
	return PT_PAGE_OK;
}

int pt_page_reserve(struct pt_page_pool *p, uint64_t phys, uint64_t n)
{
	int64_t i;
	int rc = check_run(p, phys, n, 1, &i);

	if (rc != PT_PAGE_OK)
		return rc;
	for (uint64_t k = 0; k < n; k++) {
		take(p, &p->pages[(uint64_t)i + k]);
		p->pages[(uint64_t)i + k].reserved = 1;
	}
	return PT_PAGE_OK;
}

int pt_page_color(const struct pt_page_pool *p, uint64_t phys)
{
	int64_t i = lookup(p, phys & ~((uint64_t)p->geom.page_bytes - 1));

	return i < 0 ? -1 : p->pages[i].color;
}
