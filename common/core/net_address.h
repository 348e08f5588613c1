#pragma once
// SSRF protection: the one place that decides which targets server-side requests (webhook
// deliveries) must not reach. Webhooks check twice, because what a name resolves to can change
// between registration and delivery (DNS rebinding):
//  - at registration, isPrivateHost on the host of the URL (and isPrivateAddress on what a name
//    resolves to at that moment);
//  - at connect time, isPrivateAddress on the address actually connected to, for every
//    connection.
// Both are skipped only where private targets are explicitly allowed (WEBHOOK_ALLOW_PRIVATE).
//
// Refused IPv4: 0.0.0.0/8, 10.0.0.0/8, 100.64.0.0/10, 127.0.0.0/8, 169.254.0.0/16 (cloud
// metadata), 172.16.0.0/12, 192.0.0.0/24, 192.0.2.0/24, 192.168.0.0/16, 198.18.0.0/15,
// 198.51.100.0/24, 203.0.113.0/24, 224.0.0.0/4, 240.0.0.0/4 (with 255.255.255.255).
// Refused IPv6: ::/96 (::, ::1, IPv4-compatible), 100::/64, 64:ff9b:1::/48, 2001:2::/48,
// 2001:db8::/32, 3fff::/20, fc00::/7, fe80::/10, fec0::/10, ff00::/8, and the addresses that
// embed a refused IPv4 address: ::ffff:0:0/96 (IPv4-mapped), ::ffff:0:0:0/96 (IPv4-translated),
// 64:ff9b::/96 (NAT64) and 2002::/16 (6to4).

#include <netdb.h>

#include <cstddef>
#include <string_view>

namespace feedback {

// True for a host (a URL's host: name, IPv4 or IPv6 literal, brackets allowed, any case, a
// trailing dot allowed) that must not receive server-side requests: "localhost",
// "*.localhost", "metadata.google.internal", an IPv6 literal with a zone ("fe80::1%eth0"), and
// every literal in a refused range, in any spelling getaddrinfo accepts ("2130706433",
// "0x7f000001", "0177.0.0.1", "127.1"). Any other name is allowed here and must be checked
// with isPrivateAddress once resolved.
bool isPrivateHost(std::string_view host);

// True for an address in a refused range: `bytes` points to `size` bytes in network order,
// 4 for IPv4 or 16 for IPv6. Any other size, or a null pointer, is refused: it cannot be
// vetted.
bool isPrivateAddress(const unsigned char* bytes, std::size_t size);

// True when any IPv4 or IPv6 address of a getaddrinfo() list is in a refused range.
bool anyPrivateAddress(const addrinfo* list);

}  // namespace feedback
