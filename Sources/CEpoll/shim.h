// Linux epoll, for the server's event loop (Sources/LigasServer/Server/EventLoop.swift).
// Swift's Glibc module does not export <sys/epoll.h>.
#include <sys/epoll.h>
