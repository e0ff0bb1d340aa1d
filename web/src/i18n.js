// All UI strings, one dictionary per language. Keys are shared; every visible string goes through t().
export const DICTS = {
  en: {
    title: 'gpuvalue',
    tagline: 'Which GPU cloud offer, billed which way, trains your model cheapest or fastest — and why.',
    workload: 'Workload',
    preset: 'Preset',
    pricing: 'Billing model',
    all: 'All',
    on_demand: 'On-demand',
    reserved: 'Reserved',
    spot: 'Spot',
    tiered: 'Tiered',
    monthly: 'Monthly',
    fitsOnly: 'Only offers that fit in memory',
    language: 'Language',
    rank: 'Rank',
    instance: 'Instance',
    provider: 'Provider',
    gpu: 'GPU',
    gpus: 'GPUs',
    fits: 'Fits',
    yes: 'yes',
    no: 'no',
    time: 'Time to train',
    cost: 'Job cost',
    unitCost: '$/TFLOPS·day',
    score: 'Score',
    why: 'Why',
    warnings: 'Warnings',
    resultsSummary: '{fit} of {total} offers fit · {evaluated} instance types evaluated',
    engineError: 'The engine reported an error',
    days: 'days',
    hours: 'h',
    example: 'article example',
    source: 'Price source',
    asOf: 'as of',
    totalFlops: 'Total compute',
  },
  zh: {
    title: 'gpuvalue',
    tagline: '哪家 GPU 云实例、用哪种计费方式训练你的模型最便宜或最快——以及原因。',
    workload: '训练任务',
    preset: '预设',
    pricing: '计费方式',
    all: '全部',
    on_demand: '按需',
    reserved: '预留/包年',
    spot: '竞价',
    tiered: '阶梯',
    monthly: '包月',
    fitsOnly: '只显示显存放得下的实例',
    language: '语言',
    rank: '排名',
    instance: '实例',
    provider: '云厂商',
    gpu: 'GPU',
    gpus: 'GPU 数',
    fits: '放得下',
    yes: '是',
    no: '否',
    time: '训练时间',
    cost: '任务成本',
    unitCost: '$/TFLOPS·天',
    score: '得分',
    why: '原因',
    warnings: '警告',
    resultsSummary: '{total} 个报价中 {fit} 个放得下 · 评估了 {evaluated} 种实例',
    engineError: '引擎报告了错误',
    days: '天',
    hours: '小时',
    example: '文章示例',
    source: '价格来源',
    asOf: '日期',
    totalFlops: '总计算量',
  },
};

export function pickLanguage(stored, navigatorLanguages) {
  if (stored === 'en' || stored === 'zh') return stored;
  for (const l of navigatorLanguages || []) {
    if (String(l).toLowerCase().startsWith('zh')) return 'zh';
    if (String(l).toLowerCase().startsWith('en')) return 'en';
  }
  return 'en';
}

export function translator(lang) {
  const dict = DICTS[lang] || DICTS.en;
  return (key, vars) => {
    let s = dict[key] ?? DICTS.en[key] ?? key;
    if (vars) for (const [k, v] of Object.entries(vars)) s = s.replace(`{${k}}`, v);
    return s;
  };
}
