#!/usr/bin/env bash
# Lint and format checks that CI runs (tests/run_all.sh, after `npm ci` in
# tests/e2e). Exits non-zero on any finding.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

# JS: ESLint (eslint.config.mjs; pinned in tests/e2e/package.json) over every
# .js/.mjs file outside node_modules and the build directories.
eslint=tests/e2e/node_modules/.bin/eslint
if [[ ! -x $eslint ]]; then
  echo "lint: $eslint is missing; run 'npm ci' in tests/e2e first" >&2
  exit 1
fi
"$eslint" --max-warnings 0 .
echo "eslint: clean"

# C++: clang-format 16 (.clang-format; installed by install/deps.sh --test)
# over every tracked .cpp/.h — fix with: git ls-files '*.cpp' '*.h' | xargs clang-format-16 -i
if ! command -v clang-format-16 >/dev/null; then
  echo "lint: clang-format-16 is missing; run install/deps.sh --test" >&2
  exit 1
fi
git ls-files '*.cpp' '*.h' | xargs clang-format-16 --dry-run -Werror
echo "clang-format: clean"
