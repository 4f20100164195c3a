#!/bin/sh
echo "coverage collection is not available in this offline build" >&2
exit 1
