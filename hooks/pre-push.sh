# >>> lexibrarian v1 >>>
# Stops a push while .lexibrary/ has uncommitted changes and says how to commit them (installed by
# `lexictl setup --hooks`; remove with `lexictl setup --uninstall-hooks`; skip once with
# `git push --no-verify`). Hook code after this block still reads the pushed refs on stdin.
if command -v lexictl >/dev/null 2>&1; then
  lexibrarian_refs=$(cat)
  printf '%s\n' "$lexibrarian_refs" | lexictl hook pre-push "$@" || exit 1
  if [ -n "$lexibrarian_refs" ]; then
    exec 0<<LEXIBRARIAN_REFS
$lexibrarian_refs
LEXIBRARIAN_REFS
  else
    exec 0</dev/null
  fi
fi
# <<< lexibrarian <<<
