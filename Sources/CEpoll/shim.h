// Linux epoll, for the server's event loop (Sources/LigasServer/Server/EventLoop.swift) and the
// client's reader thread (Sources/LigasClient/ReaderThread.swift).
// Swift's Glibc module does not export <sys/epoll.h>, nor <sys/eventfd.h> (the server loop's
// doorbell).
#include <sys/epoll.h>
#include <sys/eventfd.h>
