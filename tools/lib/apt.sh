# SPDX-License-Identifier: GPL-2.0
# Sourced: apt with a private state. The machine's own apt configuration
# and lists are not touched; only the archives in STATE/sources.list are
# known.
#
#   apt_private STATE apt-get|apt-cache ARGS...
apt_private() {
	local state=$1 tool=$2
	shift 2
	mkdir -p "$state/lists/partial" "$state/cache/archives/partial"
	"$tool" -q -o Dir::Etc::SourceList="$state/sources.list" \
		-o Dir::Etc::SourceParts=/nonexistent \
		-o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" \
		-o APT::Sandbox::User=root "$@"
}
