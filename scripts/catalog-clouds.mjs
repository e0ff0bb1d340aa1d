// The SkyPilot catalog clouds that scripts/catalog-update.mjs turns into data/catalog files: folder name ->
// catalog file, provider display name, id prefix, and what the CSV cannot say (billing increment, marketplace).
// marketplace: offers from independent hosts rented through a marketplace (peer-to-peer), with no provider-run
// datacentre behind the price; marketplace_types: the instance types of a cloud that are such offers.

export const CLOUDS = {
  aws: { key: 'aws', file: 'aws.json', provider: 'AWS' },
  gcp: { key: 'gcp', file: 'gcp.json', provider: 'Google Cloud' },
  azure: { key: 'azure', file: 'azure.json', provider: 'Microsoft Azure' },
  // Alibaba Cloud is not in SkyPilot's own catalog; the fork sugarlxn/skypilot-catalog fetches it from Alibaba's
  // price API into the same vms.csv format (USD, international site).
  alicloud: {
    key: 'alibaba', file: 'alibaba.json', provider: 'Alibaba Cloud',
    note: 'USD list price from Alibaba Cloud\'s price API as fetched by the fork; region and zones as the API lists them.',
  },
  lambda: {
    key: 'lambda', file: 'lambda.json', provider: 'Lambda', billing_increment_s: 60,
    note: 'Lambda bills on-demand instances in one-minute increments (docs.lambda.ai/public-cloud/billing).',
  },
  // RunPod's COMMUNITY cloud is hosts of third parties; SECURE is RunPod's own datacentres
  // (docs.runpod.io/pods/choose-a-pod: "Community Cloud … peer-to-peer").
  runpod: { key: 'runpod', file: 'runpod.json', provider: 'RunPod', marketplace_types: /_COMMUNITY$/ },
  oci: { key: 'oci', file: 'oracle.json', provider: 'Oracle Cloud (OCI)' },
  verda: { key: 'verda', file: 'verda.json', provider: 'Verda (DataCrunch)' },
  nebius: { key: 'nebius', file: 'nebius.json', provider: 'Nebius' },
  hyperstack: { key: 'hyperstack', file: 'hyperstack.json', provider: 'Hyperstack' },
  cudo: { key: 'cudo', file: 'cudo.json', provider: 'CUDO Compute' },
  fluidstack: { key: 'fluidstack', file: 'fluidstack.json', provider: 'Fluidstack' },
  paperspace: { key: 'paperspace', file: 'paperspace.json', provider: 'Paperspace' },
  // Vast.ai: "a marketplace for renting GPUs from hosts" (docs.vast.ai); every offer is a host's listing.
  vast: {
    key: 'vast', file: 'vast.json', provider: 'Vast.ai', marketplace: true,
    note: 'Vast.ai is a marketplace of independent hosts; SkyPilot lists one row per host offer (region = host location).',
  },
  // Shadeform resells other clouds' machines at one price list; rows are split by the cloud named in the type.
  shadeform: { key: 'shadeform', file: 'shadeform.json', provider: 'Shadeform', note: 'Price of the machine booked through Shadeform.' },
  // Prime Intellect lists the machines of datacentre clouds (Lambda, Hyperstack, DataCrunch, Crusoe, Nebius, … in
  // the instance type's prefix) at one price list, as Shadeform does: not peer-to-peer hosts.
  primeintellect: { key: 'primeintellect', file: 'primeintellect.json', provider: 'Prime Intellect' },
  // Mithril is left out: SkyPilot's fetcher (sky/catalog/data_fetchers/fetch_mithril.py) writes the spot auction's
  // minimum bid (minimum_price_cents / 100) as both Price and SpotPrice, e.g. $0.01 per A100-hour: not a price a
  // job pays.
  seeweb: { key: 'seeweb', file: 'seeweb.json', provider: 'Seeweb' },
  yotta: { key: 'yotta', file: 'yotta.json', provider: 'Yotta' },
  jarvislabs: { key: 'jarvislabs', file: 'jarvislabs.json', provider: 'JarvisLabs' },
  // Hyperbolic's GPU marketplace rents machines of third-party suppliers (hyperbolic.xyz, "GPU marketplace").
  hyperbolic: { key: 'hyperbolic', file: 'hyperbolic.json', provider: 'Hyperbolic', marketplace: true },
  // Lium (Bittensor subnet 51): "a decentralized, peer-to-peer GPU rental marketplace, connecting miners who contribute
  // GPU resources with users" (github.com/Datura-ai/lium-io, README); every offer is a miner's machine.
  lium: {
    key: 'lium', file: 'lium.json', provider: 'Lium', marketplace: true,
    note: 'Lium is a peer-to-peer marketplace of miners\' GPU machines; SkyPilot lists one row per machine (region = its country code).',
  },
  // Spheron sources its GPU capacity from other providers (docs.spheron.network/concepts: "Voltage Park, DataCrunch,
  // TensorDock, Sesterce, Spheron AI, and Massed Compute"): datacentre offers, not peer-to-peer hosts. Same page:
  // "All instance types enforce a 20-minute minimum runtime before manual termination."
  spheron: {
    key: 'spheron', file: 'spheron.json', provider: 'Spheron',
    note: 'Price of a machine of one of the providers Spheron sources from (SkyPilot\'s Provider column), booked through Spheron; a 20-minute minimum runtime applies (docs.spheron.network/concepts).',
  },
  // Daytona GPU sandboxes (daytona.io/docs/en/gpu-sandboxes): on-demand or spot capacity; region "earth" is Daytona's
  // global placement, which lets Daytona choose the region (daytona.io/docs/en/v2/regions).
  daytona: {
    key: 'daytona', file: 'daytona.json', provider: 'Daytona',
    note: 'Daytona GPU sandbox; region "earth" is Daytona\'s global placement (Daytona picks the region).',
  },
};

// Shadeform instance-type prefixes -> the cloud that runs the machine (all go to shadeform.json).
const viaShadeform = (key, name) => ({
  key: `shadeform-${key}`, file: 'shadeform.json', provider: `${name} (via Shadeform)`,
  note: `Price of ${name}'s machine booked through Shadeform's multi-cloud marketplace.`,
});
export const SHADEFORM_CLOUDS = {
  crusoe: viaShadeform('crusoe', 'Crusoe'),
  denvr: viaShadeform('denvr', 'Denvr Dataworks'),
  excesssupply: viaShadeform('excesssupply', 'Excess Supply'),
  hyperstack: viaShadeform('hyperstack', 'Hyperstack'),
  lambdalabs: viaShadeform('lambdalabs', 'Lambda'),
  massedcompute: viaShadeform('massedcompute', 'Massed Compute'),
  paperspace: viaShadeform('paperspace', 'Paperspace'),
  scaleway: viaShadeform('scaleway', 'Scaleway'),
  vultr: viaShadeform('vultr', 'Vultr'),
};
