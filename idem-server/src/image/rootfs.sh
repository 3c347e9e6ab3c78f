#!/usr/bin/env bash
# Stages the root file system the container image adds to "scratch" (no base image is pulled):
#   /opt/java                    a JDK 25 runtime cut down by jlink to the modules Idem needs
#   /lib64, /lib/x86_64-linux-gnu the host's dynamic loader and the shared libraries that runtime links
#   /etc/passwd, /etc/group      the unprivileged user 65532 ("nonroot") the image runs as
#   /tmp, /data, /etc/idem       scratch space, the data directory and the config directory
# Usage: rootfs.sh JAVA_HOME OUTPUT_DIR. A runtime already staged with the same module list is kept,
# so that a repeated build costs a second, not a jlink.
set -euo pipefail
jdk="$1"
out="$2"

# Found with: jdeps --multi-release 25 --ignore-missing-deps --print-module-deps --class-path 'lib/*'
#   idem-server.jar lib/*.jar   (java.desktop is java.beans, read by Jackson, Jetty and SnakeYAML);
# jdk.zipfs (a jar opened as a file system, found through ServiceLoader, which jdeps cannot see) is
# a margin. ImageTarballIT runs idem serve on this runtime, so a missing module fails the build.
modules="java.base,java.desktop,java.instrument,java.naming,java.net.http,java.rmi,java.security.jgss,java.sql"
modules="$modules,jdk.management,jdk.unsupported,jdk.zipfs"

stamp="$out/opt/java/.modules"
if [ ! -x "$out/opt/java/bin/java" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$modules" ]; then
  rm -rf "$out"
  mkdir -p "$out/opt"
  "$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
    --output "$out/opt/java"
  # A headless server: no X11 toolkit, no sound, no splash screen (and none of their libraries).
  rm -f "$out"/opt/java/lib/libawt_xawt.so "$out"/opt/java/lib/libjsound.so "$out"/opt/java/lib/libsplashscreen.so
  echo "$modules" > "$stamp"
fi

# The loader and every library the runtime's executables and shared objects link, at the host's
# paths (the loader searches /lib/x86_64-linux-gnu by default); libgcc_s is opened by glibc itself
# when a thread is cancelled, so it is added by name.
libs="$( { find "$out/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -exec ldd {} \; 2>/dev/null || true; } \
  | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-linux/ { print $1 }' | sort -u)"
gcc_s="$(ldconfig -p 2>/dev/null | awk '/libgcc_s.so.1 .*x86-64/ { print $NF; exit }')"
for lib in $libs ${gcc_s:-/lib/x86_64-linux-gnu/libgcc_s.so.1}; do
  case "$lib" in "$out"/*) continue ;; esac
  mkdir -p "$out$(dirname "$lib")"
  cp -L "$lib" "$out$lib"
done

mkdir -p "$out/etc/idem" "$out/tmp" "$out/data" "$out/home/nonroot"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n' > "$out/etc/passwd"
printf 'root:x:0:\nnonroot:x:65532:\n' > "$out/etc/group"
printf 'hosts: files dns\n' > "$out/etc/nsswitch.conf"
