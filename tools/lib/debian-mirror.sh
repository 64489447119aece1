# SPDX-License-Identifier: GPL-2.0
# Sourced: where this machine gets Debian's packages from. A user behind
# their own mirror has it named in apt's sources already; the scripts
# that fetch from Debian (tools/debian-kernel, tools/arm64-root,
# tools/qemu-plugin-header) ask the same archive rather than one of ours.
#
#   debian_archive     the archive's URI, e.g. .../debian
#   debian_security    the security archive's URI, e.g. .../debian-security
#
# GUPSTAT_DEBIAN_MIRROR=URL overrides both: URL/debian and
# URL/debian-security. Otherwise the URIs come from the first enabled
# "deb" or "deb-src" source whose suite is one of Debian's, in apt's own
# order: sources.list, then sources.list.d/*.list and *.sources (one-line
# and deb822 formats). GUPSTAT_APT_SOURCES=FILE... reads those files
# instead (the host test's fixtures). The security archive, when no
# source names one, is taken to sit beside the archive, as on Debian's
# mirrors.

# Debian's suites: code names and aliases, with their update suffixes.
# Another distribution's (Ubuntu's jammy) or a vendor's own repository
# (nodistro, cloud-sdk-bookworm) does not match.
debian_suite_re='^(buster|bullseye|bookworm|trixie|forky|duke|sid|oldoldstable|oldstable|stable|testing|unstable|experimental|rc-buggy)(-updates|-backports|-backports-sloppy|-proposed-updates|-security|/updates)?$'

# The files apt reads its sources from, in its order.
debian_apt_sources() {
	local list parts f
	if [ -n "${GUPSTAT_APT_SOURCES:-}" ]; then
		printf '%s\n' "$GUPSTAT_APT_SOURCES" | tr ' ' '\n'
		return 0
	fi
	eval "$(apt-config shell list Dir::Etc::SourceList/f parts Dir::Etc::SourceParts/d 2>/dev/null)"
	echo "${list:-/etc/apt/sources.list}"
	for f in "${parts:-/etc/apt/sources.list.d/}"*; do
		case $f in *.list|*.sources) echo "$f" ;; esac
	done
}

# "URI SUITE" for every enabled source of every file, one-line entries
# and deb822 stanzas alike.
debian_apt_entries() {
	local f
	debian_apt_sources | while IFS= read -r f; do
		[ -r "$f" ] || continue
		case $f in
		*.sources) debian_deb822_entries "$f" ;;
		*) debian_oneline_entries "$f" ;;
		esac
	done
}

# "deb [options] URI SUITE COMPONENT...": options may hold spaces.
debian_oneline_entries() {
	sed -e 's/#.*//' -e 's/\[[^]]*\]//' "$1" |
		awk '$1 == "deb" || $1 == "deb-src" { print $2, $3 }'
}

# Stanzas of "Field: value" lines split by blank lines; each URI with
# each suite of its stanza.
debian_deb822_entries() {
	awk '
	function flush(  i, j, nu, ns, u, s) {
		if (types ~ /(^| )deb(-src)?( |$)/ && tolower(enabled) != "no") {
			nu = split(uris, u, " ")
			ns = split(suites, s, " ")
			for (i = 1; i <= nu; i++)
				for (j = 1; j <= ns; j++)
					print u[i], s[j]
		}
		types = uris = suites = enabled = ""
	}
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	{
		field = tolower($1); sub(/:$/, "", field)
		value = $0; sub(/^[^:]*:[ \t]*/, "", value)
		if (field == "types") types = value
		else if (field == "uris") uris = value
		else if (field == "suites") suites = value
		else if (field == "enabled") enabled = value
	}
	END { flush() }' "$1"
}

# The first Debian URI, of the security archive ($1 = security) or of
# the main one, without a trailing slash; nothing if none.
debian_apt_uri() {
	local want=$1 uri suite
	while read -r uri suite; do
		[[ $suite =~ $debian_suite_re ]] || continue
		case $suite in
		*-security|*/updates) [ "$want" = security ] || continue ;;
		*) [ "$want" = archive ] || continue ;;
		esac
		echo "${uri%/}"
		return 0
	done < <(debian_apt_entries)
}

# debian_override PATH: GUPSTAT_DEBIAN_MIRROR/PATH, where it is set.
debian_override() {
	[ -n "${GUPSTAT_DEBIAN_MIRROR:-}" ] && echo "${GUPSTAT_DEBIAN_MIRROR%/}/$1"
}

debian_archive() {
	local uri
	debian_override debian && return 0
	uri=$(debian_apt_uri archive)
	# Last resort, for a machine whose apt names no Debian archive
	# (another distribution's): Debian's own redirector.
	echo "${uri:-http://deb.debian.org/debian}"
}

debian_security() {
	local uri
	debian_override debian-security && return 0
	uri=$(debian_apt_uri security)
	[ -n "$uri" ] || uri=$(debian_archive)-security
	echo "$uri"
}
