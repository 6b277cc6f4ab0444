# Sourced by the lab fixtures after they set WORK: every nearby, receiver and app process they
# start runs as the unprivileged test user, as people run them (a suite run only as root once let
# nearby ship unable to open a socket for anyone else); only the lab's set-up stays root.
#   "${AS_USER[@]}" CMD...    CMD as that user: TEST_UID:TEST_GID (TestUser in the Swift tests;
#                             nobody by default), no supplementary groups, no capabilities, its
#                             own HOME, and no root session's runtime folder or bus
# WORK is given to the user, and what the fixture itself writes from here on is created 022.
umask 022
TEST_UID=${TEST_UID:-$(id -u nobody)} TEST_GID=${TEST_GID:-$(id -g nobody)}
TEST_HOME=${TEST_HOME:-$WORK/home}
if [ "$(id -u)" = 0 ] && [ "${TEST_AS_USER:-1}" = 1 ]; then
  mkdir -p "$TEST_HOME"
  chown -R "$TEST_UID:$TEST_GID" "$WORK" "$TEST_HOME"
  AS_USER=(setpriv "--reuid=$TEST_UID" "--regid=$TEST_GID" --clear-groups --inh-caps=-all
           env -u XDG_RUNTIME_DIR -u DBUS_SESSION_BUS_ADDRESS "HOME=$TEST_HOME" USER=nobody LOGNAME=nobody)
else
  AS_USER=(env)
fi
# Files the fixture makes for the user's processes to write (a FIFO, a log): handed over.
give() { [ "$(id -u)" = 0 ] && chown -R "$TEST_UID:$TEST_GID" "$@" || true; }
