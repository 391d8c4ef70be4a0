#!/usr/bin/env bash
# The GPU test machine has neither sshd nor ssh on its PATH; the suites that go through a
# loopback sshd (tst_gpu_remote, tst_gui_remote) take Debian's along.
#   tests/gpu/carried_sshd.sh fetch         on the build machine: Debian's openssh-server and
#                                           -client and their libraries into .device/sshd-debs
#   tests/gpu/carried_sshd.sh run CMD...    on the GPU machine: unpack them, put ssh and
#                                           ssh-keygen on PATH, make sshd's privilege-separation
#                                           user, then CMD with NVPG_TEST_SSHD naming the sshd
set -euo pipefail
cd "$(dirname "$0")/../.."
debs=.device/sshd-debs
case ${1:-} in
  fetch)
    mkdir -p "$debs"
    (cd "$debs" && apt-get download openssh-server openssh-client libwrap0 libnsl2 libtirpc3 libtirpc-common \
       libkrb5-3 libgssapi-krb5-2 libk5crypto3 libkrb5support0 libkeyutils1 libcom-err2 libaudit1 libcap-ng0 \
       libpam0g libselinux1 libssl3 libcrypt1 libpcre2-8-0 >/dev/null)
    du -sh "$debs" ;;
  run)
    shift
    rt=/tmp/sshdrt bin=/tmp/sshbin
    mkdir -p "$rt" "$bin"
    for f in "$debs"/*.deb; do dpkg -x "$f" "$rt"; done
    libs="$rt/usr/lib/x86_64-linux-gnu:$rt/lib/x86_64-linux-gnu"
    # Each tool gets the carried libraries; nothing else in the run does.
    for tool in usr/sbin/sshd usr/bin/ssh usr/bin/ssh-keygen; do
      printf '#!/bin/bash\nexport LD_LIBRARY_PATH=%s\nexec %s/%s "$@"\n' "$libs" "$rt" "$tool" > "$bin/$(basename $tool)"
      chmod +x "$bin/$(basename $tool)"
    done
    id sshd >/dev/null 2>&1 || useradd -r -M -d /run/sshd -s /usr/sbin/nologin sshd
    mkdir -p /run/sshd
    PATH="$bin:$PATH" NVPG_TEST_SSHD="$bin/sshd" exec "$@" ;;
  *) echo "usage: $0 fetch | run CMD..." >&2; exit 2 ;;
esac
