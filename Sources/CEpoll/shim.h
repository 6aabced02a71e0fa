/* Linux's epoll, which the toolchain's Glibc module does not include, for the
 * recorder's event loops. Part of the C library: nothing to link. */
#include <sys/epoll.h>
