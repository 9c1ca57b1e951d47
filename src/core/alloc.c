/* src/core/alloc.c - first-fit allocator over a sorted block list. */
#include "core/alloc.h"

#include <stdlib.h>
#include <string.h>

static size_t round_up(size_t x, size_t align)
{
    return (x + align - 1) & ~(align - 1);
}

static gsi_status_t reserve(gsi_alloc_t *a, size_t extra)
{
    gsi_block_t *grown;
    size_t capacity;

    if (a->count + extra <= a->capacity)
        return GSI_OK;
    capacity = a->capacity ? a->capacity * 2 : 64;
    while (capacity < a->count + extra)
        capacity *= 2;
    grown = realloc(a->blocks, capacity * sizeof(*grown));
    if (!grown)
        return GSI_ERR_NOMEM;
    a->blocks = grown;
    a->capacity = capacity;
    return GSI_OK;
}

static void insert_at(gsi_alloc_t *a, size_t i, gsi_block_t b)
{
    memmove(&a->blocks[i + 1], &a->blocks[i], (a->count - i) * sizeof(b));
    a->blocks[i] = b;
    a->count++;
}

static void remove_at(gsi_alloc_t *a, size_t i)
{
    memmove(&a->blocks[i], &a->blocks[i + 1], (a->count - i - 1) * sizeof(a->blocks[0]));
    a->count--;
}

gsi_status_t gsi_alloc_init(gsi_alloc_t *a, size_t size)
{
    memset(a, 0, sizeof(*a));
    a->size = size;
    if (reserve(a, 1) != GSI_OK)
        return GSI_ERR_NOMEM;
    a->blocks[0] = (gsi_block_t){0, size, 0};
    a->count = 1;
    return GSI_OK;
}

void gsi_alloc_fini(gsi_alloc_t *a)
{
    free(a->blocks);
    memset(a, 0, sizeof(*a));
}

gsi_status_t gsi_alloc_get(gsi_alloc_t *a, size_t size, size_t align, size_t *offset)
{
    if (align & (align - 1))
        return GSI_ERR_INVALID;
    if (align < GSI_ALLOC_MIN_ALIGN)
        align = GSI_ALLOC_MIN_ALIGN;
    if (size == 0 || size > a->size)
        return GSI_ERR_NOMEM;
    size = round_up(size, GSI_ALLOC_MIN_ALIGN);
    /* Up to two splits: a leading gap for alignment and a free tail. */
    if (reserve(a, 2) != GSI_OK)
        return GSI_ERR_NOMEM;
    for (size_t i = 0; i < a->count; i++) {
        gsi_block_t *b = &a->blocks[i];
        size_t start = round_up(b->offset, align);
        size_t gap = start - b->offset;

        if (b->used || b->size < gap || b->size - gap < size)
            continue;
        if (gap) {
            insert_at(a, i, (gsi_block_t){b->offset, gap, 0});
            b = &a->blocks[++i];
            b->offset = start;
            b->size -= gap;
        }
        if (b->size > size)
            insert_at(a, i + 1, (gsi_block_t){start + size, b->size - size, 0});
        b = &a->blocks[i];
        b->size = size;
        b->used = 1;
        a->in_use += size;
        *offset = start;
        return GSI_OK;
    }
    return GSI_ERR_NOMEM;
}

static long find(const gsi_alloc_t *a, size_t offset)
{
    size_t lo = 0, hi = a->count;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;

        if (a->blocks[mid].offset < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < a->count && a->blocks[lo].offset == offset ? (long)lo : -1;
}

gsi_status_t gsi_alloc_put(gsi_alloc_t *a, size_t offset)
{
    long found = find(a, offset);
    size_t i;

    if (found < 0 || !a->blocks[found].used)
        return GSI_ERR_INVALID;
    i = (size_t)found;
    a->blocks[i].used = 0;
    a->in_use -= a->blocks[i].size;
    if (i + 1 < a->count && !a->blocks[i + 1].used) {
        a->blocks[i].size += a->blocks[i + 1].size;
        remove_at(a, i + 1);
    }
    if (i > 0 && !a->blocks[i - 1].used) {
        a->blocks[i - 1].size += a->blocks[i].size;
        remove_at(a, i);
    }
    return GSI_OK;
}

size_t gsi_alloc_size(const gsi_alloc_t *a, size_t offset)
{
    long i = find(a, offset);

    return i >= 0 && a->blocks[i].used ? a->blocks[i].size : 0;
}

gsi_status_t gsi_alloc_resize(gsi_alloc_t *a, size_t offset, size_t size)
{
    long found = find(a, offset);
    gsi_block_t *b, *next;
    size_t i;

    if (found < 0 || !a->blocks[found].used || size == 0)
        return GSI_ERR_INVALID;
    i = (size_t)found;
    size = round_up(size, GSI_ALLOC_MIN_ALIGN);
    if (reserve(a, 1) != GSI_OK)
        return GSI_ERR_NOMEM;
    b = &a->blocks[i];
    next = i + 1 < a->count ? &a->blocks[i + 1] : NULL;
    if (size <= b->size) {
        size_t freed = b->size - size;

        if (!freed)
            return GSI_OK;
        b->size = size;
        a->in_use -= freed;
        if (next && !next->used) {
            next->offset -= freed;
            next->size += freed;
        } else {
            insert_at(a, i + 1, (gsi_block_t){offset + size, freed, 0});
        }
        return GSI_OK;
    }
    if (!next || next->used || b->size + next->size < size)
        return GSI_ERR_NOMEM;
    {
        size_t grow = size - b->size;

        b->size = size;
        a->in_use += grow;
        next->offset += grow;
        next->size -= grow;
        if (!next->size)
            remove_at(a, i + 1);
    }
    return GSI_OK;
}

size_t gsi_alloc_largest_free(const gsi_alloc_t *a)
{
    size_t best = 0;

    for (size_t i = 0; i < a->count; i++)
        if (!a->blocks[i].used && a->blocks[i].size > best)
            best = a->blocks[i].size;
    return best;
}
