/* src/net/ucx/ucx_private.c - UCX's SysV segments made reachable by this user
 * only (see ucx_private.h). */
#define _GNU_SOURCE
#include "config.h"

#ifdef GSHMEM_HAVE_UCX

#include "net/ucx/ucx_private.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

/* A SysV segment mapped here, and by how many of this process's mappings
 * (each counts in the kernel's attach count); or a socket's inode. */
typedef struct shm_seen {
    int id;
    unsigned long maps;
} shm_seen_t;

typedef struct shm_list {
    shm_seen_t *item;
    size_t n, cap;
} shm_list_t;

static shm_list_t before;         /* SysV segments mapped before UCX started */
static shm_list_t sockets_before; /* socket inodes (as ids) open before UCX started */

/* Adds one of id to l. */
static int count_in(shm_list_t *l, int id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->item[i].id == id) {
            l->item[i].maps++;
            return 0;
        }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        shm_seen_t *item = realloc(l->item, cap * sizeof(*item));

        if (!item)
            return -1;
        l->item = item;
        l->cap = cap;
    }
    l->item[l->n++] = (shm_seen_t){.id = id, .maps = 1};
    return 0;
}

static int listed(const shm_list_t *l, int id)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->item[i].id == id)
            return 1;
    return 0;
}

/* The SysV segments mapped in this process: in /proc/self/maps their path
 * is "/SYSV<key in hex>" and the inode column is the shmid. */
static int mapped_segments(shm_list_t *l)
{
    char line[512], path[256];
    unsigned long inode;
    FILE *maps = fopen("/proc/self/maps", "r");
    int rc = 0;

    if (!maps)
        return -1;
    while (rc == 0 && fgets(line, sizeof line, maps)) {
        path[0] = 0;
        if (sscanf(line, "%*s %*s %*s %*s %lu %255s", &inode, path) == 2 &&
            strncmp(path, "/SYSV", 5) == 0)
            rc = count_in(l, (int)inode);
    }
    fclose(maps);
    return rc;
}

/* Calls each(fd, inode) for every socket this process has open; stops at
 * and returns the first nonzero result, -1 when the fds cannot be listed. */
static int each_socket(int (*each)(int fd, unsigned long inode, void *arg), void *arg)
{
    DIR *dir = opendir("/proc/self/fd");
    struct dirent *e;
    struct stat st;
    int rc = 0;

    if (!dir)
        return -1;
    while (rc == 0 && (e = readdir(dir)) != NULL) {
        int fd = atoi(e->d_name);

        if (e->d_name[0] < '0' || e->d_name[0] > '9' || fd == dirfd(dir))
            continue;
        if (fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode))
            rc = each(fd, (unsigned long)st.st_ino, arg);
    }
    closedir(dir);
    return rc;
}

static int note_socket(int fd, unsigned long inode, void *arg)
{
    (void)fd;
    return count_in(arg, (int)inode);
}

gsi_status_t gst_ucx_private_begin(char *err, size_t errlen)
{
    gst_ucx_private_end();
    if (mapped_segments(&before) != 0 || each_socket(note_socket, &sockets_before) != 0) {
        snprintf(err, errlen,
                 "cannot list the SysV segments and sockets of this process "
                 "(/proc/self/maps, /proc/self/fd)");
        return GSI_ERR_SYSTEM;
    }
    return GSI_OK;
}

void gst_ucx_private_end(void)
{
    free(before.item);
    before = (shm_list_t){0};
    free(sockets_before.item);
    sockets_before = (shm_list_t){0};
}

typedef struct why {
    char *err;
    size_t errlen;
} why_t;

/* A new datagram socket bound to an abstract name and connected nowhere
 * (UCX's wake-up socket) is connected to itself: no one else may send to
 * it then.  1 (and why) when that fails. */
static int close_socket(int fd, unsigned long inode, void *arg)
{
    struct sockaddr_un a, peer;
    socklen_t len = sizeof(a), peer_len = sizeof(peer), type_len = sizeof(int);
    int type = 0;
    why_t *why = arg;

    if (listed(&sockets_before, (int)inode) ||
        getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &type_len) != 0 || type != SOCK_DGRAM ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0 || a.sun_family != AF_UNIX ||
        len <= offsetof(struct sockaddr_un, sun_path) + 1 || a.sun_path[0] != 0 ||
        getpeername(fd, (struct sockaddr *)&peer, &peer_len) == 0)
        return 0;
    if (connect(fd, (struct sockaddr *)&a, len) != 0) {
        snprintf(why->err, why->errlen,
                 "cannot close UCX's wake-up socket (fd %d) to other senders: %s", fd,
                 strerror(errno));
        return 1;
    }
    return 0;
}

/* Makes segment s this user's alone, if this process made it and it is
 * open to others; -1 and err when that fails or came too late. */
static int seal_one(const shm_seen_t *s, char *err, size_t errlen)
{
    struct shmid_ds ds;
    pid_t me = getpid();

    if (shmctl(s->id, IPC_STAT, &ds) != 0)
        return 0; /* gone, or not ours to look at: then not ours to seal */
    if (ds.shm_cpid != me || ds.shm_perm.cuid != geteuid() ||
        !(ds.shm_perm.mode & (S_IRWXG | S_IRWXO)))
        return 0;
    ds.shm_perm.mode &= ~(unsigned short)(S_IRWXG | S_IRWXO);
    if (shmctl(s->id, IPC_SET, &ds) != 0) {
        snprintf(err, errlen, "cannot make UCX's shared memory segment %d private (mode 0600): %s",
                 s->id, strerror(errno));
        return -1;
    }
    /* From here on no one else can attach.  Before, only this process's
     * UCX calls did: so every attachment must be one of our mappings, and
     * the last process to attach or detach must be this one. */
    if (shmctl(s->id, IPC_STAT, &ds) != 0 || ds.shm_nattch != s->maps || ds.shm_lpid != me) {
        snprintf(err, errlen,
                 "UCX's shared memory segment %d was attached by another process "
                 "(pid %d, %lu attachments, %lu of them here) before it was made private",
                 s->id, (int)ds.shm_lpid, (unsigned long)ds.shm_nattch, s->maps);
        return -1;
    }
    return 0;
}

gsi_status_t gst_ucx_private_seal(char *err, size_t errlen)
{
    shm_list_t now = {0};
    gsi_status_t status = GSI_OK;

    if (mapped_segments(&now) != 0) {
        snprintf(err, errlen, "cannot list the SysV segments mapped here (/proc/self/maps)");
        status = GSI_ERR_SYSTEM;
        goto out;
    }
    for (size_t i = 0; i < now.n && status == GSI_OK; i++)
        if (!listed(&before, now.item[i].id) && seal_one(&now.item[i], err, errlen) != 0)
            status = GSI_ERR_SYSTEM;
    if (status == GSI_OK) {
        why_t why = {err, errlen};
        int rc = each_socket(close_socket, &why);

        if (rc < 0)
            snprintf(err, errlen, "cannot list the sockets of this process (/proc/self/fd)");
        if (rc != 0)
            status = GSI_ERR_SYSTEM;
    }
out:
    free(now.item);
    return status;
}

#endif
