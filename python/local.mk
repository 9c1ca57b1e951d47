# python/: the gshmem Python package (ctypes over libgshmem.so,
# libgshmem_moe.so and libgshmem_kv.so).  `make install` copies it to
# $(gshmempydir), writes _installed.py (the libdir it loads the libraries from), and makes each
# python3 find it through a gshmem.pth (python/install-pth.sh; not under
# DESTDIR, where the files are only staged; only for a default prefix unless
# configure --with-python-pth=yes or GSHMEM_PYTHON_PTH=yes at make install).
gshmempydir = $(libdir)/gshmem/python
gshmempkgdir = $(gshmempydir)/gshmem
GSHMEM_PY_FILES = python/gshmem/__init__.py python/gshmem/_deps.py python/gshmem/_lib.py \
	python/gshmem/core.py python/gshmem/memory.py python/gshmem/rma.py python/gshmem/coll.py \
	python/gshmem/moe.py python/gshmem/_reuse.py
gshmempkg_DATA = $(GSHMEM_PY_FILES)
# gshmem.kv is a package: the KV library's binding and its vLLM connector.
gshmemkvdir = $(gshmempkgdir)/kv
GSHMEM_PY_KV_FILES = python/gshmem/kv/__init__.py python/gshmem/kv/vllm.py
gshmemkv_DATA = $(GSHMEM_PY_KV_FILES)
EXTRA_DIST += python/install-pth.sh

install-data-hook: install-python-hook
install-python-hook:
	printf '# Written by make install: where the libraries are.\nLIBDIR = "%s"\n' \
		'$(libdir)' > '$(DESTDIR)$(gshmempkgdir)/_installed.py'
	if [ -z '$(DESTDIR)' ]; then \
		GSHMEM_PYTHON_PTH="$${GSHMEM_PYTHON_PTH:-$(PYTHON_PTH)}" GSHMEM_PTH_PREFIX='$(prefix)' \
		sh '$(srcdir)/python/install-pth.sh' install '$(gshmempydir)'; fi

uninstall-hook: uninstall-python-hook
uninstall-python-hook:
	rm -f '$(DESTDIR)$(gshmempkgdir)/_installed.py'
	if [ -z '$(DESTDIR)' ]; then sh '$(srcdir)/python/install-pth.sh' uninstall '$(gshmempydir)'; fi
.PHONY: install-python-hook uninstall-python-hook
