/*
 * The cheapest proxy there is: one thread and one epoll(7) set, copying bytes between each
 * client connection and an upstream connection of its own with recv(2) and blocking send(2).
 * No HTTP parsing, no recording, no redaction. bench/hop-floor.sh runs it as the shared harness's candidate, to
 * show what one extra loopback hop costs on this machine at this moment (the floor any
 * recording proxy's figures sit above).
 *
 *   hop-relay LISTEN_PORT UPSTREAM_PORT [LIFETIME_SECONDS]
 *
 * Listens on 127.0.0.1 only and exits by itself after LIFETIME_SECONDS (default 900).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons((unsigned short)port);
    return address;
}

/* Sends all of buffer[0..<count]; 0 on success. */
static int send_all(int fd, const char *buffer, ssize_t count) {
    while (count > 0) {
        ssize_t sent = send(fd, buffer, (size_t)count, MSG_NOSIGNAL);
        if (sent < 0 && errno == EINTR) continue;
        if (sent <= 0) return -1;
        buffer += sent;
        count -= sent;
    }
    return 0;
}

/* Both ends of one relayed connection; data.ptr of each end's epoll entry points at its own. */
struct end {
    int fd;
    struct end *peer;
};

/* Stands in for a closed end in the rest of an event batch. */
static struct end closed = {-1, NULL};

/* Connects to the upstream and watches both ends; returns -1 when the upstream refuses. */
static int open_pair(int epoll, int client, int upstream_port) {
    int one = 1;
    int upstream = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = loopback(upstream_port);
    if (upstream < 0 || connect(upstream, (struct sockaddr *)&address, sizeof address) != 0) {
        if (upstream >= 0) close(upstream);
        return -1;
    }
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    struct end *ends = calloc(2, sizeof *ends);
    if (!ends) abort();
    ends[0] = (struct end){client, &ends[1]};
    ends[1] = (struct end){upstream, &ends[0]};
    for (int side = 0; side < 2; side++) {
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &ends[side]};
        epoll_ctl(epoll, EPOLL_CTL_ADD, ends[side].fd, &event);
    }
    return 0;
}

/* Closes both ends of a pair; the pair's memory starts at the lower of the two. */
static void close_pair(int epoll, struct end *end) {
    struct end *first = end < end->peer ? end : end->peer;
    epoll_ctl(epoll, EPOLL_CTL_DEL, first[0].fd, NULL);
    epoll_ctl(epoll, EPOLL_CTL_DEL, first[1].fd, NULL);
    close(first[0].fd);
    close(first[1].fd);
    free(first);
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: hop-relay LISTEN_PORT UPSTREAM_PORT [LIFETIME_SECONDS]\n");
        return 64;
    }
    int listen_port = atoi(argv[1]), upstream_port = atoi(argv[2]);
    alarm(argc > 3 ? (unsigned)atoi(argv[3]) : 900);
    int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = loopback(listen_port);
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 128) != 0) {
        perror("hop-relay: listen");
        return 1;
    }
    int epoll = epoll_create1(0);
    struct epoll_event listening = {.events = EPOLLIN, .data.ptr = NULL};
    epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &listening);
    static char buffer[65536];
    struct epoll_event events[64];
    for (;;) {
        int ready = epoll_wait(epoll, events, 64, -1);
        if (ready < 0 && errno != EINTR) {
            perror("hop-relay: epoll_wait");
            return 1;
        }
        for (int index = 0; index < ready; index++) {
            struct end *end = events[index].data.ptr;
            if (!end) {
                int client = accept(listener, NULL, NULL);
                if (client >= 0 && open_pair(epoll, client, upstream_port) != 0) close(client);
                continue;
            }
            if (end->fd < 0) continue; /* closed earlier in this batch */
            ssize_t count = recv(end->fd, buffer, sizeof buffer, 0);
            if (count <= 0 || send_all(end->peer->fd, buffer, count) != 0) {
                /* a pair closed now may still have an event later in this batch */
                for (int later = index + 1; later < ready; later++) {
                    if (events[later].data.ptr == end->peer || events[later].data.ptr == end) events[later].data.ptr = &closed;
                }
                close_pair(epoll, end);
            }
        }
    }
}
