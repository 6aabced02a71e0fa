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
