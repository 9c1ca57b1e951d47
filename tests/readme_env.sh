#!/bin/sh
# The README's environment table lists exactly the variables gshmem-info
# prints, with the same defaults.
top=${GSHMEM_TOP_SRCDIR:-.}
build=${GSHMEM_TOP_BUILDDIR:-.}
info=$("$build/tools/gshmem-info") || { echo "gshmem-info failed"; exit 1; }
table=$(echo "$info" | sed -n '/^variable /,$p' | tail -n +2)
fail=0
echo "$table" | while read -r name def rest; do
    [ -n "$name" ] || continue
    if ! grep -q "^| \`$name\` | \`$def\` |" "$top/README.md"; then
        echo "README.md lacks the row for $name (default $def)"
        exit 1
    fi
done || fail=1
rows=$(grep -c '^| `[A-Z0-9_]*` | `' "$top/README.md")
vars=$(echo "$table" | grep -c .)
if [ "$rows" -ne "$vars" ]; then
    echo "README.md lists $rows variables, gshmem-info $vars"
    fail=1
fi
[ $fail -eq 0 ] && echo "README environment table matches gshmem-info ($vars variables)"
exit $fail
