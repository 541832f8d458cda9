/* The floor under ligasd's cold start: a program that does nothing but answer one `ping` on
 * the socket it is handed (socket activation, fd 3), started the way ligasd is (the same socket
 * unit and service unit under systemd --user, or systemd-socket-activate), and timed by the same
 * client (`ligas-bench first-reply`). What ligasd's cold start costs beyond this is ligasd's own;
 * the rest is the manager's and the kernel's (fork, cgroup, exec, the C runtime).
 *
 * It speaks just enough of Protocol/PROTOCOL.md: it answers the client's hello with the
 * server hello of Protocol/vectors/hello-server.json and a request with an empty-map
 * response (Protocol/vectors/response-ping.json) under the request's id. It tells systemd it is
 * ready (Type=notify, as ligasd does), then exits once it has answered. Anything else (a frame
 * over 4 KiB, a short one, a client gone) ends it with status 1, without an error frame: it serves
 * only the bench's client, whose frames are a few dozen bytes.
 *
 *   cc -O2 -o ping-only ping-only.c   (scripts/bench builds it)
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static const uint8_t server_hello[] = {
    0x00, 0x00, 0x00, 0x56, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa5, 0x65, 0x61, 0x67,
    0x65, 0x6e, 0x74, 0x6c, 0x6c, 0x69, 0x67, 0x61, 0x73, 0x64, 0x2f, 0x30, 0x2e, 0x31, 0x2e, 0x30,
    0x68, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x73, 0x81, 0x01, 0x69, 0x63, 0x68, 0x75, 0x6e,
    0x6b, 0x53, 0x69, 0x7a, 0x65, 0x1a, 0x00, 0x01, 0x00, 0x00, 0x6b, 0x6d, 0x61, 0x78, 0x49, 0x6e,
    0x46, 0x6c, 0x69, 0x67, 0x68, 0x74, 0x18, 0x20, 0x6c, 0x6d, 0x61, 0x78, 0x46, 0x72, 0x61, 0x6d,
    0x65, 0x53, 0x69, 0x7a, 0x65, 0x1a, 0x00, 0x10, 0x00, 0x00,
};

static int read_exactly(int fd, uint8_t *buffer, size_t count) {
    for (size_t done = 0; done < count;) {
        ssize_t n = read(fd, buffer + done, count - done);
        if (n <= 0) return -1;
        done += (size_t)n;
    }
    return 0;
}

static void notify_ready(void) {
    const char *path = getenv("NOTIFY_SOCKET");
    if (path == NULL || path[0] != '/' || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) return;
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    strcpy(address.sun_path, path);
    int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return;
    (void)sendto(fd, "READY=1", 7, 0, (struct sockaddr *)&address, sizeof address);
    close(fd);
}

int main(void) {
    notify_ready();
    int connection = accept(3, NULL, NULL);
    if (connection < 0) return 1;
    uint8_t frame[4096];
    for (;;) {
        if (read_exactly(connection, frame, 4) != 0) return 1;
        uint32_t length = (uint32_t)frame[0] << 24 | (uint32_t)frame[1] << 16 | (uint32_t)frame[2] << 8 | frame[3];
        if (length < 8 || length > sizeof frame - 4 || read_exactly(connection, frame + 4, length) != 0) return 1;
        uint8_t kind = frame[5];
        if (kind == 0x01) {
            if (send(connection, server_hello, sizeof server_hello, MSG_NOSIGNAL) != (ssize_t)sizeof server_hello) return 1;
        } else if (kind == 0x02) {
            uint8_t response[13] = {0x00, 0x00, 0x00, 0x09, 0x01, 0x03, 0x00, 0x00};
            memcpy(response + 8, frame + 8, 4); /* the request's id */
            response[12] = 0xa0;                /* {} */
            return send(connection, response, sizeof response, MSG_NOSIGNAL) == (ssize_t)sizeof response ? 0 : 1;
        }
    }
}
