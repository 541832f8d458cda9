/* The floor under ligasd's cold start: a program that does nothing but answer one `ping` on
 * the socket it is handed (socket activation, fd 3), started the way ligasd is (the same socket
 * unit and service unit under systemd --user, or systemd-socket-activate), and timed by the same
 * client (`ligas-bench --cold-floor`). What ligasd's cold start costs beyond this is ligasd's own;
 * the rest is the manager's and the kernel's (fork, cgroup, exec, the C runtime).
 *
 * It speaks just enough of Protocol/PROTOCOL.md: it answers the client's hello with the
 * server hello of Protocol/vectors/hello-server.json and a request with an empty-map
 * response (Protocol/vectors/response-ping.json) under the request's id. It tells systemd it is
 * ready (Type=notify, as ligasd does), then exits once it has answered. Anything else (a frame
 * over 4 KiB, a short one, a client gone) ends it with status 1, without an error frame: it serves
 * only the bench's client, whose frames are a few dozen bytes.
 *
 *   scripts/bench builds it, with the frames taken from Protocol/vectors.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

/* Both frames come from the golden vectors, as scripts/bench compiles this file:
 * -DSERVER_HELLO=<bytes of hello-server.json> -DPING_RESPONSE=<bytes of response-ping.json>. */
#if !defined(SERVER_HELLO) || !defined(PING_RESPONSE)
#error "build with -DSERVER_HELLO=... -DPING_RESPONSE=... (see scripts/bench)"
#endif
static const uint8_t server_hello[] = {SERVER_HELLO};
static const uint8_t ping_response[] = {PING_RESPONSE};

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
            uint8_t response[sizeof ping_response];
            memcpy(response, ping_response, sizeof response);
            memcpy(response + 8, frame + 8, 4); /* under the request's id */
            return send(connection, response, sizeof response, MSG_NOSIGNAL) == (ssize_t)sizeof response ? 0 : 1;
        }
    }
}
