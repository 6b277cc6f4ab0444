// libavahi-client (Debian's libavahi-client-dev): the machine's avahi-daemon over its D-Bus API,
// so that MulticastDNS publishes and browses through the daemon that already owns udp/5353
// instead of opening sockets beside it. AvahiThreadedPoll runs the client's events on a thread
// of its own, like the built-in engine's.
#include <avahi-client/client.h>
#include <avahi-client/lookup.h>
#include <avahi-client/publish.h>
#include <avahi-common/alternative.h>
#include <avahi-common/error.h>
#include <avahi-common/malloc.h>
#include <avahi-common/strlst.h>
#include <avahi-common/thread-watch.h>
#include <avahi-common/timeval.h>
