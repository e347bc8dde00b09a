# typewrite: build, test, install and uninstall.
#
#   make                          build the release binary (swift build -c release)
#   make test                     run the tests quietly (swift test --disable-xctest --quiet)
#   make install                  install under PREFIX (default /usr/local); builds first if there
#                                 is no release binary yet, so `make && sudo make install` needs
#                                 no Swift toolchain on root's PATH
#   make install PREFIX="$HOME/.local"          install for one user
#   make install DESTDIR=/tmp/pkg PREFIX=/usr   stage a package
#   make uninstall                remove what install put in place (same PREFIX and DESTDIR)
#
# Installs the binary (stripped: no debugging information), the man page and the bash, zsh and
# fish completions. The completion scripts are printed by the built binary (typewrite
# --completions SHELL), from the same option table as --help and the man page.
#
# install notes the folders it had to create in $(PREFIX)/share/typewrite/created-folders (not
# when staging with DESTDIR: a package manager removes its own folders); uninstall removes those
# that are empty then, so nothing install created stays behind and no folder it found is removed.

PREFIX  ?= /usr/local
DESTDIR ?=
SWIFT   ?= swift
INSTALL ?= install

BINDIR      = $(PREFIX)/bin
MANDIR      = $(PREFIX)/share/man/man1
BASHCOMPDIR = $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  = $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(PREFIX)/share/fish/vendor_completions.d
NOTEDIR     = $(PREFIX)/share/typewrite
CREATED     = $(NOTEDIR)/created-folders

# Where swift build puts the release binary (SwiftPM links .build/release to the platform's folder).
RELEASE_BIN = .build/release/typewrite

.PHONY: all build test install uninstall clean

all: build

build:
	$(SWIFT) build -c release

$(RELEASE_BIN):
	$(SWIFT) build -c release

test:
	$(SWIFT) test --disable-xctest --quiet

install: $(RELEASE_BIN)
	@# The folders missing now, each ancestor up to the first that exists, deepest last.
	@created=$$(for d in "$(BINDIR)" "$(MANDIR)" "$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)" "$(NOTEDIR)"; do \
		while [ ! -d "$(DESTDIR)$$d" ] && [ "$$d" != / ] && [ "$$d" != . ]; do echo "$$d"; d=$$(dirname "$$d"); done; \
	done | LC_ALL=C sort -u); \
	$(INSTALL) -d "$(DESTDIR)$(BINDIR)" "$(DESTDIR)$(MANDIR)" \
		"$(DESTDIR)$(BASHCOMPDIR)" "$(DESTDIR)$(ZSHCOMPDIR)" "$(DESTDIR)$(FISHCOMPDIR)" && \
	if [ -z "$(DESTDIR)" ]; then \
		$(INSTALL) -d "$(NOTEDIR)" && \
		{ if [ -f "$(CREATED)" ]; then cat "$(CREATED)"; fi; echo "$$created"; } | sed '/^$$/d' | LC_ALL=C sort -u > "$(CREATED).new" && \
		mv "$(CREATED).new" "$(CREATED)" && chmod 644 "$(CREATED)"; \
	fi
	$(INSTALL) -m 755 -s "$(RELEASE_BIN)" "$(DESTDIR)$(BINDIR)/typewrite"
	$(INSTALL) -m 644 man/typewrite.1 "$(DESTDIR)$(MANDIR)/typewrite.1"
	"$(RELEASE_BIN)" --completions bash > "$(DESTDIR)$(BASHCOMPDIR)/typewrite"
	"$(RELEASE_BIN)" --completions zsh > "$(DESTDIR)$(ZSHCOMPDIR)/_typewrite"
	"$(RELEASE_BIN)" --completions fish > "$(DESTDIR)$(FISHCOMPDIR)/typewrite.fish"
	chmod 644 "$(DESTDIR)$(BASHCOMPDIR)/typewrite" "$(DESTDIR)$(ZSHCOMPDIR)/_typewrite" \
		"$(DESTDIR)$(FISHCOMPDIR)/typewrite.fish"

uninstall:
	rm -f "$(DESTDIR)$(BINDIR)/typewrite" "$(DESTDIR)$(MANDIR)/typewrite.1" \
		"$(DESTDIR)$(BASHCOMPDIR)/typewrite" "$(DESTDIR)$(ZSHCOMPDIR)/_typewrite" \
		"$(DESTDIR)$(FISHCOMPDIR)/typewrite.fish"
	@# The folders install created, deepest first (a child sorts after its parent), if empty.
	@if [ -z "$(DESTDIR)" ] && [ -f "$(CREATED)" ]; then \
		folders=$$(LC_ALL=C sort -r "$(CREATED)") && rm -f "$(CREATED)" && \
		printf '%s\n' "$$folders" | while IFS= read -r d; do \
			if [ -d "$$d" ]; then rmdir "$$d" 2>/dev/null || true; fi; \
		done; \
	fi

clean:
	$(SWIFT) package clean
