#!/bin/sh
echo pq-sh "$@"
