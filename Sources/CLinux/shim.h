/* Linux and glibc calls that the toolchain's Glibc module does not declare: fallocate(2)
 * (it needs _GNU_SOURCE), for reserving a recording's disk blocks ahead of its writes, and
 * mallopt(3), for the recording proxy's heap settings. Part of the C library: nothing to link. */
#include <sys/types.h>
#include <linux/falloc.h>
#include <malloc.h>

int fallocate(int fd, int mode, off_t offset, off_t len);

/* Reserves [offset, offset + length) of the file's blocks without changing its size: appends
 * into the range then skip the file system's block allocation. Returns 0, or -1 with errno
 * (EOPNOTSUPP where the file system cannot). */
static inline int accord_reserve_beyond_end(int fd, off_t offset, off_t length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, offset, length);
}

#include <sys/uio.h>

/* Drops `sent` bytes from the front of vectors[first..<count] after a gather write (writev(2),
 * sendmsg(2)) that took only part of them, and returns the index of the first vector with bytes
 * left (count when none are). The one place a partial gather write is stepped past, for the
 * recording writer and the HTTP response stream. */
static inline int accord_iov_consume(struct iovec *vectors, int count, int first, size_t sent) {
    while (first < count && sent >= vectors[first].iov_len) {
        sent -= vectors[first].iov_len;
        first += 1;
    }
    if (first < count && sent > 0) {
        vectors[first].iov_base = (char *)vectors[first].iov_base + sent;
        vectors[first].iov_len -= sent;
    }
    return first;
}

#include <sys/eventfd.h>

/* poll(2)'s POLLRDHUP (the peer shut down its side), which glibc declares only under
 * _GNU_SOURCE: how a thread waiting between two pieces of a long-lived response notices that
 * its client hung up. */
enum { ACCORD_POLLRDHUP = 0x2000 };

#include <spawn.h>

/* posix_spawn_file_actions_addclosefrom_np(3) (glibc 2.34) and pipe2(2), which need _GNU_SOURCE:
 * a driver is spawned with only its three pipes open, and the pipes are made close-on-exec so
 * that no other child inherits them. */
int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
/* posix_spawn_file_actions_addchdir_np(3) (glibc 2.29): the tests' child processes start in a
 * folder of their own. */
int posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path);
int pipe2(int fds[2], int flags);
