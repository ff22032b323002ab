# >>> lexibrarian v1 >>>
# Keeps .lexibrary/ current (installed by `lexictl setup --hooks`; remove with
# `lexictl setup --uninstall-hooks`). Returns at once: the update runs in the background.
if command -v lexictl >/dev/null 2>&1; then
  lexictl hook {hook}{args} </dev/null >/dev/null 2>&1 || true
fi
# <<< lexibrarian <<<
