#!/usr/bin/env bash
# Runs every test: the whole tree, then the core suites again under
# AddressSanitizer+UBSan and the concurrency suites under ThreadSanitizer.
set -euo pipefail
cd "$(dirname "$0")/.."
./tools/install_deps.sh

bazel test //... "$@"
bazel test --config=asan --test_tag_filters=-no_asan --build_tests_only //... "$@"
bazel test --config=tsan --test_tag_filters=tsan --build_tests_only //... "$@"
