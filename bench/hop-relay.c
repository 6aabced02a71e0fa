/*
 * The cheapest proxy there is: one thread and one epoll(7) set, copying bytes between each
 * client connection and an upstream connection of its own with recv(2) and blocking send(2).
 * No HTTP parsing, no recording, no redaction. bench/hop-floor.sh runs it as the shared
 * harness's candidate, to show what one extra loopback hop costs on this machine at this
 * moment: the floor that any recording proxy's first byte and CPU per request sit above.
 *
 *   hop-relay LISTEN_PORT UPSTREAM_PORT [LIFETIME_SECONDS]
 *
 * Listens on 127.0.0.1 only and exits by itself after LIFETIME_SECONDS (default 900).
 * Limits, fine for the harness's loads (8 connections of 2 KB pushes, one stream): one thread
 * serves every connection, and a send blocks it until the receiver takes the bytes, so a
 * client that stops reading stalls the others. A side that half-closes is passed on
 * (shutdown of the other side's writing); the pair closes when both have.
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

/* A whole number from min to max, or -1. */
static long number(const char *text, long min, long max) {
    char *rest = NULL;
    errno = 0;
    long value = strtol(text, &rest, 10);
    if (errno != 0 || rest == text || *rest != '\0' || value < min || value > max) return -1;
    return value;
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

/* One end of a relayed connection; data.ptr of its epoll entry points at it. The two ends of
 * a pair are allocated together, the client's first. */
struct end {
    int fd;
    int ended; /* the peer closed its writing side */
    struct end *peer;
};

/* Stands in for a closed end in the rest of an event batch. */
static struct end closed = {-1, 1, NULL};

/* Connects to the upstream and watches both ends; -1 when that fails (the client is closed). */
static int open_pair(int epoll, int client, int upstream_port) {
    int one = 1;
    int upstream = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = loopback(upstream_port);
    struct end *ends = calloc(2, sizeof *ends);
    if (upstream < 0 || !ends || connect(upstream, (struct sockaddr *)&address, sizeof address) != 0) {
        if (upstream >= 0) close(upstream);
        free(ends);
        close(client);
        return -1;
    }
    setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    setsockopt(upstream, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ends[0] = (struct end){client, 0, &ends[1]};
    ends[1] = (struct end){upstream, 0, &ends[0]};
    for (int side = 0; side < 2; side++) {
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &ends[side]};
        if (epoll_ctl(epoll, EPOLL_CTL_ADD, ends[side].fd, &event) != 0) {
            close(client);
            close(upstream);
            free(ends);
            return -1;
        }
    }
    return 0;
}

/* Closes both ends of a pair (closing a descriptor also takes it out of the epoll set). */
static void close_pair(struct end *end) {
    struct end *first = end < end->peer ? end : end->peer;
    close(first[0].fd);
    close(first[1].fd);
    free(first);
}

int main(int argc, char **argv) {
    long listen_port = argc > 2 ? number(argv[1], 1, 65535) : -1;
    long upstream_port = argc > 2 ? number(argv[2], 1, 65535) : -1;
    long lifetime = argc > 3 ? number(argv[3], 1, 86400) : 900;
    if (argc < 3 || argc > 4 || listen_port < 0 || upstream_port < 0 || lifetime < 0) {
        fprintf(stderr, "usage: hop-relay LISTEN_PORT UPSTREAM_PORT [LIFETIME_SECONDS (1-86400)]\n");
        return 64;
    }
    alarm((unsigned)lifetime);
    int one = 1;
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = loopback((int)listen_port);
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (listener < 0 || bind(listener, (struct sockaddr *)&address, sizeof address) != 0 || listen(listener, 128) != 0) {
        perror("hop-relay: listen");
        return 1;
    }
    int epoll = epoll_create1(0);
    struct epoll_event listening = {.events = EPOLLIN, .data.ptr = NULL};
    if (epoll < 0 || epoll_ctl(epoll, EPOLL_CTL_ADD, listener, &listening) != 0) {
        perror("hop-relay: epoll");
        return 1;
    }
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
                if (client >= 0) {
                    open_pair(epoll, client, (int)upstream_port);
                } else if (errno == EMFILE || errno == ENFILE) {
                    usleep(10000); /* out of descriptors: do not spin on the readable listener */
                }
                continue;
            }
            if (end->fd < 0) continue; /* its pair was closed earlier in this batch */
            ssize_t count = recv(end->fd, buffer, sizeof buffer, 0);
            if (count < 0 && errno == EINTR) continue;
            int done = 0;
            if (count > 0) {
                done = send_all(end->peer->fd, buffer, count) != 0;
            } else if (count == 0) {
                /* This side finished sending: pass it on, stop watching it. */
                end->ended = 1;
                shutdown(end->peer->fd, SHUT_WR);
                epoll_ctl(epoll, EPOLL_CTL_DEL, end->fd, NULL);
                done = end->peer->ended;
            } else {
                done = 1;
            }
            if (done) {
                for (int later = index + 1; later < ready; later++) {
                    if (events[later].data.ptr == end || events[later].data.ptr == end->peer) events[later].data.ptr = &closed;
                }
                close_pair(end);
            }
        }
    }
}
