/*
 * tests/security/intrude.c - what another local user tries on a job's
 * objects (shm_modes.sh runs it as that user):
 *
 *   intrude TARGET...
 *     shm:ID       attach SysV segment ID read-write, else read-only
 *     file:PATH    open PATH read-write, else read-only
 *     sock:NAME    send a datagram to, or connect to, the abstract Unix
 *                  socket NAME (without its leading NUL)
 *
 * One line per target: "intrude: REACHED ..." or "intrude: refused ...".
 * Exit status 1 when any target was reached, 0 when none was, 2 on misuse.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int try_shm(const char *id_text, char *why, size_t len)
{
    int id = atoi(id_text);
    void *p = shmat(id, NULL, 0);

    if (p == (void *)-1)
        p = shmat(id, NULL, SHM_RDONLY);
    if (p == (void *)-1) {
        snprintf(why, len, "%s", strerror(errno));
        return 0;
    }
    shmdt(p);
    return 1;
}

static int try_file(const char *path, char *why, size_t len)
{
    int fd = open(path, O_RDWR | O_CLOEXEC);

    if (fd < 0)
        fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, len, "%s", strerror(errno));
        return 0;
    }
    close(fd);
    return 1;
}

static int try_sock(const char *name, char *why, size_t len)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    size_t n = strlen(name);
    socklen_t alen;
    int fd, reached = 0, err_dgram, err_stream;

    if (n + 1 > sizeof(a.sun_path)) {
        snprintf(why, len, "name too long");
        return 0;
    }
    memcpy(a.sun_path + 1, name, n); /* sun_path[0] == 0: abstract */
    alen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
    fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd >= 0 && sendto(fd, "x", 1, MSG_DONTWAIT, (struct sockaddr *)&a, alen) == 1)
        reached = 1;
    err_dgram = errno;
    if (fd >= 0)
        close(fd);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (!reached && fd >= 0 && connect(fd, (struct sockaddr *)&a, alen) == 0)
        reached = 1;
    err_stream = errno;
    if (fd >= 0)
        close(fd);
    if (!reached)
        snprintf(why, len, "datagram: %s, stream: %s", strerror(err_dgram),
                 strerror(err_stream));
    return reached;
}

int main(int argc, char **argv)
{
    int reached = 0;

    if (argc < 2) {
        fprintf(stderr, "usage: intrude shm:ID|file:PATH|sock:NAME...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        char why[256] = "";
        const char *t = argv[i];
        int ok;

        if (strncmp(t, "shm:", 4) == 0)
            ok = try_shm(t + 4, why, sizeof why);
        else if (strncmp(t, "file:", 5) == 0)
            ok = try_file(t + 5, why, sizeof why);
        else if (strncmp(t, "sock:", 5) == 0)
            ok = try_sock(t + 5, why, sizeof why);
        else {
            fprintf(stderr, "intrude: what is %s?\n", t);
            return 2;
        }
        if (ok)
            printf("intrude: REACHED %s (uid %d)\n", t, (int)getuid());
        else
            printf("intrude: refused %s: %s\n", t, why);
        reached |= ok;
    }
    return reached ? 1 : 0;
}
