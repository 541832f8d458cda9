// libsystemd's daemon and journal APIs, for Swift. sd_journal_send() is a variadic macro Swift
// cannot call; the Swift side uses sd_journal_sendv() and passes CODE_FILE/LINE/FUNC itself.
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>
