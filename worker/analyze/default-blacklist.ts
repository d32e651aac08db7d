/**
 * The spam-link blacklist shipped with Tidemark: advertising, tracking and pop-under networks
 * whose links are never worth archiving as content, plus URL patterns typical of link farms and
 * click redirectors. Hosts match themselves and their subdomains. The ICD's `focus.blacklist`
 * adds to this list.
 */
export const DEFAULT_BLACKLIST: readonly string[] = [
  // Ad serving and exchanges
  'doubleclick.net', 'googlesyndication.com', 'googleadservices.com', 'adservice.google.com',
  'amazon-adsystem.com', 'adnxs.com', 'adsrvr.org', 'criteo.com', 'criteo.net', 'pubmatic.com',
  'rubiconproject.com', 'openx.net', 'casalemedia.com', 'advertising.com', 'adform.net', 'zedo.com',
  'smartadserver.com', 'bidswitch.net', 'yieldmo.com', 'sharethrough.com', 'teads.tv', '33across.com',
  'media.net', 'adroll.com', 'adtech.de', 'serving-sys.com', 'moatads.com', 'indexww.com',
  // Content-recommendation widgets ("around the web" link blocks)
  'taboola.com', 'outbrain.com', 'revcontent.com', 'mgid.com', 'zergnet.com',
  // Pop-under and aggressive networks
  'propellerads.com', 'popads.net', 'popcash.net', 'adcash.com', 'exoclick.com', 'juicyads.com',
  'trafficjunky.net', 'adsterra.com', 'hilltopads.net', 'clickadu.com',
  // Trackers and analytics beacons
  'google-analytics.com', 'googletagmanager.com', 'googletagservices.com', 'scorecardresearch.com',
  'quantserve.com', 'hotjar.com', 'mixpanel.com', 'segment.io', 'bluekai.com', 'krxd.net',
  'exelator.com', 'mathtag.com', 'demdex.net', 'everesttech.net', 'chartbeat.net', 'newrelic.com',
  'nr-data.net', 'addthis.com', 'sharethis.com',
  // Patterns: click redirectors, ad paths, classic link-farm vocabulary in host names
  're:/(adclick|adserver|clicktrack|click\\.php|aff_c|afflink|redirect\\.php\\?url=)',
  're:^https?://[^/]*(casino|viagra|cialis|payday-?loan|replica-?watch|porn|xxx|escort)[^/]*/',
  're:[?&](aff_id|affiliate_id|clickid)=',
];
