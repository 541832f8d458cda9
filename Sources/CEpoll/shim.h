// Linux epoll, for the server's event loop (Sources/LigasServer/Server/EventLoop.swift) and the
// client's reader thread (Sources/LigasClient/ReaderThread.swift).
// Swift's Glibc module does not export <sys/epoll.h>.
#include <sys/epoll.h>
