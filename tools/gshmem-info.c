/* gshmem-info: version, build configuration, bootstraps and transports, and
 * every environment variable with its default, current value and meaning.
 * --help prints its manual page; the ENVIRONMENT section is the library's
 * own table (gshmemx_info_print's listing, read back with the defaults). */
#define _GNU_SOURCE
#include <shmemx.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define USAGE \
    "usage: gshmem-info [-h | --help | --topology [--xml FILE] [--local-pes N] [--bind slice|core]]"
#define WIDTH 80 /* help lines end before this column */

/* TEXT as a paragraph indented by INDENT, words wrapped before WIDTH. */
static void para(int indent, const char *text)
{
    int col = 0;

    while (*text) {
        const char *w = text;
        int n;

        while (*w == ' ')
            w++;
        n = (int)strcspn(w, " ");
        if (n == 0)
            break;
        if (col > indent && col + 1 + n >= WIDTH) {
            putchar('\n');
            col = 0;
        }
        if (col == 0)
            col = printf("%*s", indent, "");
        else
            col += printf(" ");
        col += printf("%.*s", n, w);
        text = w + n;
    }
    if (col)
        putchar('\n');
}

/* What gshmemx_info_print prints, in a malloc'd string (NULL on failure).
 * Run in an empty environment, so "current" is the default and no value
 * of this shell can make it fail. */
static char *info_text(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    FILE *out = stdout;
    int rc;

    if (!mem)
        return NULL;
    clearenv();
    stdout = mem; /* glibc: stdout is a variable printf reads */
    rc = gshmemx_info_print();
    stdout = out;
    fclose(mem);
    if (rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The start of the next word of *P (and *P moves past it), or NULL. */
static char *word(char **p)
{
    char *w = *p + strspn(*p, " ");

    if (!*w)
        return NULL;
    *p = w + strcspn(w, " ");
    if (**p)
        *(*p)++ = '\0';
    return w;
}

static void trim(char *s)
{
    size_t n = strlen(s);

    while (n && s[n - 1] == ' ')
        s[--n] = '\0';
}

/* One paragraph per variable of the listing in INFO: name, default,
 * meaning.  The listing's header line gives the columns; a row whose fields
 * do not fit them is split at spaces instead. */
static int print_env(char *info)
{
    char *hdr = strstr(info, "\nvariable ");
    size_t cd, cc, cm;
    char *row;
    int count = 0;

    if (!hdr)
        return 0;
    hdr++;
    row = strchr(hdr, '\n');
    if (!row || !strstr(hdr, " default ") || !strstr(hdr, " current ") || !strstr(hdr, " meaning"))
        return 0;
    *row++ = '\0';
    cd = (size_t)(strstr(hdr, " default ") - hdr) + 1;
    cc = (size_t)(strstr(hdr, " current ") - hdr) + 1;
    cm = (size_t)(strstr(hdr, " meaning") - hdr) + 1;
    while (*row) {
        char *next = strchr(row, '\n');
        char *name, *def, *meaning;

        if (next)
            *next++ = '\0';
        else
            next = row + strlen(row);
        if (strlen(row) > cm && row[cd - 1] == ' ' && row[cc - 1] == ' ' && row[cm - 1] == ' ' &&
            row[0] != ' ' && row[cm] != ' ') {
            row[cd - 1] = row[cc - 1] = row[cm - 1] = '\0';
            name = row;
            def = row + cd;
            meaning = row + cm;
            trim(name);
            def += strspn(def, " ");
            trim(def);
        } else {
            char *p = row;

            name = word(&p);
            def = word(&p);
            if (!word(&p)) /* the current value */
                break;
            meaning = p + strspn(p, " ");
        }
        if (!name || !*name)
            break;
        printf("       %s (default %s)\n", name, *def ? def : "empty");
        para(14, meaning);
        count++;
        row = next;
    }
    return count;
}

static int help(void)
{
    char *info = info_text();
    char *version = NULL;

    if (info) {
        size_t n = strcspn(info, "\n");
        version = strndup(info, n);
    }
    printf("GSHMEM-INFO(1)\n\nNAME\n");
    para(7, "gshmem-info - show how gshmem was built and the environment variables it reads");
    printf("\nSYNOPSIS\n");
    para(7,
         "gshmem-info [-h | --help | --topology [--xml FILE] [--local-pes N] [--bind slice|core]]");
    printf("\nDESCRIPTION\n");
    para(7, "gshmem-info prints the gshmem version and the OpenSHMEM version it implements; "
            "the build configuration (whether PMIx, UCX, hwloc, Criterion and CUDA were found); "
            "the bootstraps, by which PEs find each other, and the transports, by which they "
            "reach each other's memory; then every environment variable gshmem reads, with its "
            "default, its value in this environment, and its meaning. It needs no launcher and "
            "starts no PE.");
    putchar('\n');
    para(7, "A program run with SHMEM_INFO=1 prints the same table on PE 0 at shmem_init; "
            "one run with SHMEM_VERSION=1 prints the version.");
    printf("\nOPTIONS\n       -h, --help\n");
    para(14, "Print this help and exit.");
    printf("       --topology [--xml FILE] [--local-pes N] [--bind slice|core]\n");
    para(
        14,
        "Print the GPUs and NICs hwloc finds on this node (or in the XML topology "
        "FILE) and where N local PEs (default 1), PE r bound to the r-th of N slices of "
        "the cores (--bind core: to the first core of it), would place their GPU, NIC, proxy threads and heap pages, each with "
        "why; GSHMEM_GPU, GSHMEM_HCA, GSHMEM_PROXY_CPUS and GSHMEM_HEAP_NUMA apply as at "
        "shmem_init.");
    printf("\nENVIRONMENT\n");
    para(7, "gshmem reads these at shmem_init; a value it does not accept stops shmem_init "
            "with one line naming the variable and what it accepts. Sizes take the suffixes "
            "K, M, G and T; booleans 0/1, yes/no, true/false or on/off.");
    putchar('\n');
    if (!info || print_env(info) == 0)
        para(7, "(gshmem-info could not list them: run it without options.)");
    printf("\nEXIT STATUS\n       0      The information was printed.\n");
    printf("       1      An environment variable holds a value gshmem does not accept "
           "(the\n              line starting \"gshmem:\" names it).\n");
    printf("       2      An unknown option, or an argument.\n");
    printf("\nSEE ALSO\n");
    para(7, "gshmemcc --help, gshmemrun --help, pkg-config --cflags --libs gshmem; README.md "
            "in the gshmem sources.");
    if (version) {
        putchar('\n');
        para(7, version);
    }
    free(version);
    free(info);
    return fflush(stdout) == 0 ? 0 : 1;
}

int gshmem_info_topology(int argc, char **argv); /* gshmem-info-topo.c */

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--topology") == 0)
        return gshmem_info_topology(argc, argv);
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-h") != 0 && strcmp(argv[i], "--help") != 0) {
            fprintf(stderr, "gshmem-info: %s '%s'; " USAGE "\n",
                    argv[i][0] == '-' ? "unknown option" : "unexpected argument", argv[i]);
            return 2;
        }
    }
    if (argc > 1)
        return help();
    return gshmemx_info_print();
}
