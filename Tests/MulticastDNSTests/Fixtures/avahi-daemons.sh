# Sourced by avahi-lab.sh and avahi-nearby.sh: avahi-daemon on a private system bus in a lab host.
# Expects BUSES (a short folder: unix socket paths are limited to 108 bytes), WORK, and the
# functions at and bg_at of the sourcing script.
#   start_daemons HOST    starts dbus-daemon and avahi-daemon in HOST (their output in
#                         WORK/avahi-HOST.out); prints the pid of avahi-daemon, whose bus pid is
#                         in BUSES/HOST/bus.pid once the bus is up; the bus is at
#                         unix:path=BUSES/HOST/socket
#   restart_avahi HOST    avahi-daemon again in HOST, after its first one stopped, on the same bus
#                         (output in WORK/avahi-HOST-again.out); prints its pid
#   bus_config HOST       writes BUSES/HOST/bus.conf (for a bus without a daemon)
#   udp5353 HOST          the programs holding udp/5353 in HOST ("avahi-daemon,mdns-probe")

# A system bus for host $1: dbus-daemon with the system policy (so avahi-dbus.conf applies: root
# may own org.freedesktop.Avahi), listening only on a socket in $BUSES/$1.
bus_config() {
  mkdir -p "$BUSES/$1"
  cat > "$BUSES/$1/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$BUSES/$1/socket</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Introspectable"/>
    <allow send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Properties"/>
  </policy>
  <includedir>/usr/share/dbus-1/system.d</includedir>
</busconfig>
CONF
  echo "unix:path=$BUSES/$1/socket"
}

# avahi-daemon for host $1 on its bus: its own configuration, an empty services folder and a
# private /run/avahi-daemon, mounted in this mount namespace only (ip netns exec gives each
# command its own).
avahi_config() {
  mkdir -p "$BUSES/$1/services"
  cat > "$BUSES/$1/avahi-daemon.conf" <<CONF
[server]
host-name=avahi-$1
use-ipv4=yes
use-ipv6=yes
allow-interfaces=eth0
enable-dbus=yes
[wide-area]
enable-wide-area=no
[publish]
publish-hinfo=no
publish-workstation=no
CONF
}
# Runs in the host: the bus in the background, then avahi-daemon in the foreground (exec'd, so
# SIGTERM to this process stops the daemon; the bus goes when the lab's namespace is torn down
# or its process is killed by cleanup). AVAHI_AGAIN is the daemon alone, on the bus already there.
AVAHI_MOUNTS='mount --bind "$dir/services" /etc/avahi/services
{ mount -t tmpfs tmpfs /run/avahi-daemon 2>/dev/null || { mkdir -p /run/avahi-daemon && mount -t tmpfs tmpfs /run/avahi-daemon; }; }'
AVAHI_EXEC='export DBUS_SYSTEM_BUS_ADDRESS="unix:path=$dir/socket"
exec avahi-daemon --file "$dir/avahi-daemon.conf" --no-drop-root --no-chroot --no-rlimits'
DAEMONS="dir=\$1
$AVAHI_MOUNTS
dbus-daemon --config-file=\"\$dir/bus.conf\" --nofork --nopidfile > \"\$dir/bus.log\" 2>&1 &
echo \$! > \"\$dir/bus.pid\"
for _ in \$(seq 1000); do [ -S \"\$dir/socket\" ] && break; sleep 0.02; done
$AVAHI_EXEC"
AVAHI_AGAIN="dir=\$1
$AVAHI_MOUNTS
$AVAHI_EXEC"
start_daemons() {
  bus_config "$1" >/dev/null
  avahi_config "$1"
  bg_at "$1" sh -c "$DAEMONS" sh "$BUSES/$1" > "$WORK/avahi-$1.out" 2>&1 &
  echo $!
}
restart_avahi() {
  bg_at "$1" sh -c "$AVAHI_AGAIN" sh "$BUSES/$1" > "$WORK/avahi-$1-again.out" 2>&1 &
  echo $!
}
# The sockets on udp/5353 in host $1 and the programs holding them ("avahi-daemon,mdns-probe").
udp5353() { at "$1" ss -Hulnp 'sport = :5353' | grep -o 'users:(("[^"]*"' | sed 's/users:(("//; s/"$//' | sort -u | paste -sd, -; }
