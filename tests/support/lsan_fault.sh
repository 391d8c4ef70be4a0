#!/usr/bin/env bash
# A stand-in suite for RunQtTest.sh's LeakSanitizer rule: STATE MODE. once: the leak checker's
# own failure the first time, a pass the next; always: that failure every time; leak: a leak.
state=$1
case $2 in
once)
    if [ ! -e "$state" ]; then
        : >"$state"
        echo "==1==LeakSanitizer has encountered a fatal error."
        exit 23
    fi
    echo "PASS   : Stand::in()"
    exit 0
    ;;
always)
    echo "==1==LeakSanitizer has encountered a fatal error."
    exit 23
    ;;
leak)
    echo "==1==ERROR: LeakSanitizer: detected memory leaks"
    echo "==1==LeakSanitizer has encountered a fatal error."
    exit 23
    ;;
esac
