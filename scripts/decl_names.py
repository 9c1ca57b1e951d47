#!/usr/bin/env python3
"""decl_names.py - the functions and types a preprocessed header declares.

    python3 scripts/decl_names.py FILE.i [--prefix gshmem]

reads the output of `cc -E` or `nvcc -x cu -E` over the headers a program
includes and prints one line per top-level declaration or definition of a
function whose name starts with the prefix (default: gshmem, so gshmem_ and
gshmemx_):

    NAME<TAB>WHERE        WHERE = host, device or host+device

A function is device-callable when it carries __device__ (nvcc writes it as
__attribute__((device))), host-callable when it carries __host__ or no
__device__; under a plain C compiler everything is "host+device" (host
lanes run the device API as host code).  --signatures adds a third column,
the return and parameter types; --types prints the typedef names with the
prefix instead.

It reads structure, not text: only names at brace depth 0 count, so a call
inside a function body or a macro's string does not pass for a declaration.
The test tests/header/nvshmem-names.sh and scripts/gen_compat.py use it.
"""
import re
import sys

TOKEN = re.compile(
    r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|[A-Za-z_]\w*|\d[\w.]*|\S')


def tokens(text):
    """The C tokens of TEXT, without line markers (# 12 "file")."""
    for line in text.splitlines():
        if line.startswith('#'):
            continue
        for tok in TOKEN.findall(line):
            yield tok


def statements(toks):
    """Top-level declarations as token lists: a function body or an
    aggregate's braces are skipped; extern "C" { and namespace N { are
    entered, so what they hold is top level too."""
    chunk = []
    depth = 0
    for tok in toks:
        if depth:
            if tok == '{':
                depth += 1
            elif tok == '}':
                depth -= 1
                if depth == 0 and body_is_function:
                    yield chunk
                    chunk = []
            continue
        if tok == ';':
            yield chunk
            chunk = []
        elif tok == '{':
            head = chunk[:1]
            if (len(chunk) == 2 and chunk[0] == 'extern' and chunk[1].startswith('"')) or \
                    head == ['namespace']:
                chunk = []
                continue
            body_is_function = is_function_head(chunk)
            depth = 1
        elif tok == '}':
            chunk = []  # the end of an extern "C" or namespace block
        else:
            chunk.append(tok)
    if chunk:
        yield chunk


def is_function_head(chunk):
    """True when CHUNK (the tokens before a '{') is a function's head."""
    if not chunk or chunk[0] in ('typedef', 'struct', 'union', 'enum', 'class'):
        return False
    return '=' not in paren_depth0(chunk) and ')' in chunk


def paren_depth0(chunk):
    depth = 0
    out = []
    for tok in chunk:
        if tok == '(':
            depth += 1
        elif tok == ')':
            depth -= 1
        elif depth == 0:
            out.append(tok)
    return out


def declared_function(chunk, prefix):
    """(name, where, signature) when CHUNK declares a function named
    PREFIX..., else None."""
    if not chunk or chunk[0] == 'typedef':
        return None
    depth = 0
    for i, tok in enumerate(chunk):
        if tok == '(':
            if depth == 0 and i > 0 and chunk[i - 1].startswith(prefix) and \
                    re.fullmatch(r'[A-Za-z_]\w*', chunk[i - 1]):
                attrs = chunk[:i - 1]
                return chunk[i - 1], callable_from(attrs), signature(attrs, chunk[i:])
            depth += 1
        elif tok == ')':
            depth -= 1
        elif tok in ('=', '{'):
            return None
    return None


SPECIFIERS = {'static', 'inline', '__inline', '__inline__', 'extern', '__forceinline__',
              '__device__', '__host__', '__noinline__'}


def without_attributes(toks):
    """TOKS less __attribute__((...)) groups and storage/inline specifiers."""
    out = []
    i = 0
    while i < len(toks):
        if toks[i] in ('__attribute__', '__declspec', '__location__') and \
                i + 1 < len(toks) and toks[i + 1] == '(':
            depth = 0
            i += 1
            while i < len(toks):
                depth += {'(': 1, ')': -1}.get(toks[i], 0)
                i += 1
                if depth == 0:
                    break
            continue
        if toks[i] not in SPECIFIERS and not toks[i].startswith('"'):
            out.append(toks[i])
        i += 1
    return out


def signature(attrs, rest):
    """'RET(PARAM, ...)' with the parameters' names dropped, so that two
    functions of the same shape compare equal."""
    params = []
    cur = []
    depth = 0
    for tok in rest[1:]:
        if tok == '(':
            depth += 1
        elif tok == ')':
            if depth == 0:
                break
            depth -= 1
        if tok == ',' and depth == 0:
            params.append(cur)
            cur = []
        else:
            cur.append(tok)
    params.append(cur)
    shapes = []
    for p in params:
        p = without_attributes(p)
        if len(p) > 1 and re.fullmatch(r'[A-Za-z_]\w*', p[-1]) and p[-1] not in (
                'int', 'long', 'short', 'char', 'unsigned', 'signed', 'float', 'double',
                'void', 'const', 'volatile'):
            p = p[:-1]
        shapes.append(' '.join(t for t in p if t != 'restrict' and t != '__restrict'))
    ret = ' '.join(without_attributes(attrs))
    return f'{ret}({", ".join(shapes)})'


def callable_from(attrs):
    """host, device or host+device from the tokens before the name."""
    text = ' '.join(attrs)
    device = re.search(r'\b__device__\b|__attribute__ \( \( device \) \)', text)
    host = re.search(r'\b__host__\b|__attribute__ \( \( host \) \)', text)
    if device and not host:
        return 'device'
    if device and host:
        return 'host+device'
    if '__nv_' in text or '__cudart_builtin__' in text:
        return 'host'
    return None  # no CUDA attribute: decided by the caller (see scan)


def scan(text, prefix='gshmem', signatures=False):
    """{name: where} for every function named PREFIX... in TEXT; with
    SIGNATURES, {name: (where, signature)}."""
    cuda = '__attribute__((device))' in text or '__attribute__((global))' in text
    found = {}
    shape = {}
    for chunk in statements(tokens(text)):
        hit = declared_function(chunk, prefix)
        if not hit:
            continue
        name, where, sig = hit
        if where is None:
            where = 'host' if cuda else 'host+device'
        old = found.get(name)
        if old and old != where:
            where = 'host+device'
        found[name] = where
        shape.setdefault(name, sig)
    if signatures:
        return {name: (where, shape[name]) for name, where in found.items()}
    return found


def scan_types(text, prefix='gshmem'):
    """The typedef names that start with PREFIX."""
    names = set()
    for chunk in statements(tokens(text)):
        if chunk and chunk[0] == 'typedef':
            flat = paren_depth0(chunk)
            if flat and flat[-1].startswith(prefix):
                names.add(flat[-1])
    return names


def main(argv):
    args = argv[1:]
    prefix = 'gshmem'
    types = False
    if '--prefix' in args:
        i = args.index('--prefix')
        prefix = args[i + 1]
        del args[i:i + 2]
    if '--types' in args:
        args.remove('--types')
        types = True
    sigs = '--signatures' in args
    if sigs:
        args.remove('--signatures')
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding='utf-8', errors='replace') as f:
        text = f.read()
    if types:
        for name in sorted(scan_types(text, prefix)):
            print(name)
    elif sigs:
        for name, (where, sig) in sorted(scan(text, prefix, True).items()):
            print(f'{name}\t{where}\t{sig}')
    else:
        for name, where in sorted(scan(text, prefix).items()):
            print(f'{name}\t{where}')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
