/*
 * tests/pe/bad_relro.c - a put into the program's read-only relocation data
 * (RELRO: here a const table of function pointers, which the loader fills
 * and then makes read-only) is reported, not carried out: no PE may
 * rewrite another's function pointers.
 */
/* EXPECT: gshmem: PE 0: shmem_putmem: .*is not in symmetric memory */
#define _GNU_SOURCE
#include <link.h>
#include <shmem.h>
#include <stdint.h>
#include <stdio.h>

static void hello(void)
{
    puts("bad_relro: hello");
}

static void bye(void)
{
    puts("bad_relro: bye");
}

/* Relocated at load time in a position-independent program, so it lies in
 * .data.rel.ro, inside PT_GNU_RELRO. */
static void (*const table[])(void) = {hello, bye};

static uintptr_t relro_lo, relro_hi;

static int find_relro(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    (void)arg;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_GNU_RELRO) {
            relro_lo = info->dlpi_addr + info->dlpi_phdr[i].p_vaddr;
            relro_hi = relro_lo + info->dlpi_phdr[i].p_memsz;
        }
    return 1; /* the first object is the program */
}

int main(void)
{
    void (*evil)(void) = bye;
    uintptr_t at = (uintptr_t)&table[0];
    /* Read back through a pointer the compiler cannot see through: it
     * would otherwise call hello() for table[0]() directly. */
    void (*const *volatile slot)(void) = &table[0];

    dl_iterate_phdr(find_relro, NULL);
    if (at < relro_lo || at + sizeof(evil) > relro_hi) {
        fprintf(stderr, "bad_relro: the table at %p is not in RELRO [%p, %p) (not a PIE?)\n",
                (void *)at, (void *)relro_lo, (void *)relro_hi);
        return 1;
    }
    shmem_init();
    if (shmem_my_pe() == 0)
        shmem_putmem((void *)&table[0], &evil, sizeof(evil), shmem_n_pes() - 1);
    shmem_barrier_all();
    (*slot)(); /* "bye" where the put got through */
    fprintf(stderr, "bad_relro: the put into RELRO returned\n");
    shmem_finalize();
    return 0;
}
