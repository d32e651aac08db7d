import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressClass, addressRefusal, type AddressClass } from '../../../worker/fetch';

test('addressClass: IPv4 ranges, at their edges', () => {
  const table: [string, AddressClass][] = [
    ['127.0.0.1', 'loopback'], ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'], ['10.255.255.255', 'private'], ['172.16.0.1', 'private'], ['172.31.255.255', 'private'], ['192.168.1.1', 'private'],
    ['172.15.255.255', 'public'], ['172.32.0.1', 'public'], ['192.169.0.1', 'public'], ['11.0.0.1', 'public'],
    ['169.254.169.254', 'link-local'], ['169.254.0.1', 'link-local'], ['169.253.255.255', 'public'], ['169.255.0.1', 'public'],
    ['0.0.0.0', 'unspecified'], ['0.1.2.3', 'unspecified'],
    ['100.64.0.1', 'carrier-grade-nat'], ['100.127.255.255', 'carrier-grade-nat'], ['100.63.255.255', 'public'], ['100.128.0.1', 'public'],
    ['8.8.8.8', 'public'], ['93.184.216.34', 'public'], ['192.0.2.1', 'public'],
  ];
  for (const [ip, cls] of table) assert.equal(addressClass(ip), cls, ip);
});

test('addressClass: IPv6, brackets and zone indexes, and IPv4 carried in IPv6', () => {
  const table: [string, AddressClass][] = [
    ['::1', 'loopback'], ['[::1]', 'loopback'], ['0:0:0:0:0:0:0:1', 'loopback'], ['::', 'unspecified'], ['[::]', 'unspecified'],
    ['fc00::1', 'private'], ['fd12:3456::1', 'private'], ['fe00::1', 'public'],
    ['fe80::1', 'link-local'], ['fe80::1%eth0', 'link-local'], ['febf::1', 'link-local'], ['fec0::1', 'public'],
    ['2001:db8::1', 'public'], ['2606:4700::1111', 'public'],
    // Mapped, as a resolver writes them and as URL parsers do (http://[::ffff:169.254.169.254]/ → [::ffff:a9fe:a9fe]).
    ['::ffff:127.0.0.1', 'loopback'], ['::ffff:7f00:1', 'loopback'], ['[::ffff:a9fe:a9fe]', 'link-local'], ['::FFFF:10.0.0.1', 'private'],
    ['::ffff:0:0', 'unspecified'], ['::ffff:8.8.8.8', 'public'], ['0:0:0:0:0:ffff:c0a8:101', 'private'],
    // NAT64 and the old compatible form.
    ['64:ff9b::a9fe:a9fe', 'link-local'], ['64:ff9b::8.8.8.8', 'public'], ['::7f00:1', 'loopback'],
    // Not an address: no network of the crawler's.
    ['example.org', 'public'], ['', 'public'],
  ];
  for (const [ip, cls] of table) assert.equal(addressClass(ip), cls, ip);
});

test('addressRefusal: public always; others with allowPrivateAddresses, or on a seed\'s own kind of network, link-local never so', () => {
  const none = { allowPrivateAddresses: false, seedClasses: new Set<AddressClass>() };
  assert.equal(addressRefusal('93.184.216.34', none), null);
  for (const ip of ['127.0.0.1', '10.1.2.3', '169.254.169.254', '0.0.0.0', '100.64.1.1', '::1', 'fd00::1', 'fe80::1', '::ffff:7f00:1']) {
    assert.match(addressRefusal(ip, none) ?? '', /^.+ is an? .*address.*: not requested.*scope\.allowPrivateAddresses: true allows it\)$/, ip);
    assert.equal(addressRefusal(ip, { ...none, allowPrivateAddresses: true }), null, ip);
  }
  assert.match(addressRefusal('169.254.169.254', none)!, /^169\.254\.169\.254 is a link-local address \(where cloud metadata services answer\)/);
  // A crawl seeded on 127.0.0.1 (every test, the demo) reaches loopback, and only loopback.
  const loopbackSeed = { allowPrivateAddresses: false, seedClasses: new Set<AddressClass>(['loopback']) };
  assert.equal(addressRefusal('127.0.0.2', loopbackSeed), null);
  assert.equal(addressRefusal('::1', loopbackSeed), null);
  assert.notEqual(addressRefusal('0.0.0.0', loopbackSeed), null);
  assert.notEqual(addressRefusal('10.0.0.1', loopbackSeed), null);
  // An intranet crawl reaches the intranet, not the crawler's own host.
  const intranetSeed = { allowPrivateAddresses: false, seedClasses: new Set<AddressClass>(['private']) };
  assert.equal(addressRefusal('192.168.0.9', intranetSeed), null);
  assert.equal(addressRefusal('fd00::9', intranetSeed), null);
  assert.notEqual(addressRefusal('127.0.0.1', intranetSeed), null);
  // A seed on a link-local address does not open the metadata service to every page.
  assert.notEqual(addressRefusal('169.254.169.254', { allowPrivateAddresses: false, seedClasses: new Set<AddressClass>(['link-local']) }), null);
});
