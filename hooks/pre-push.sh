# >>> lexibrarian v1 >>>
# Never stops a push by default: says in one line when the last commit's library is not in it (the
# next commit carries it). With `hooks.pre_push: block` in .lexibrary/config.yaml it stops a push of
# a commit whose library is not current. Installed by `lexictl setup --hooks`; remove with
# `lexictl setup --uninstall-hooks`. Hook code after this block still reads the pushed refs on stdin.
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
