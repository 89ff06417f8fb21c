/**
 * Small name lists for the pre-trained entity recogniser. They are not meant to be complete:
 * they anchor the capitalised-sequence heuristics, which also use cue words (suffixes such as
 * "Inc" or "University", titles such as "Dr", prepositions such as "in").
 */

function set(words: string): ReadonlySet<string> {
  return new Set(
    words
      .split('|')
      .map((word) => word.trim().toLowerCase())
      .filter(Boolean),
  );
}

export const ORGANIZATIONS = set(
  'Oracle|Microsoft|Google|Alphabet|Apple|Amazon|IBM|SAP|Salesforce|Tesla|Honda|Toyota|Ford|BMW|Volkswagen|' +
    'NASA|FIFA|NATO|UNESCO|UNICEF|United Nations|European Union|Red Bull|Netflix|Facebook|Meta|Intel|Nvidia|AMD|' +
    'Samsung|Sony|Nike|Adidas|Coca-Cola|Pepsi|PepsiCo|Walmart|Uber|Airbnb|Spotify|Twitter|LinkedIn|GitHub|OpenAI|' +
    'Goldman Sachs|JPMorgan|JP Morgan|Visa|Mastercard|PayPal|eBay|Cisco|Dell|HP|Lenovo|Huawei|Siemens|Nokia|' +
    'Ericsson|Accenture|Deloitte|KPMG|PwC|World Bank|Federal Reserve|FBI|CIA|BBC|CNN|Reuters|Harvard|Stanford|MIT|' +
    "Boeing|Airbus|Pfizer|Moderna|Shell|BP|ExxonMobil|Chevron|Nestle|Unilever|IKEA|Zara|Starbucks|McDonald's|" +
    'Disney|Warner Bros|Paramount|Adobe|VMware|Red Hat|Atlassian|Slack|Zoom|Dropbox|Shopify|Stripe|Alibaba|' +
    'Tencent|Baidu|Xiaomi|Infosys|Wipro|Tata|Reliance|Ferrari|Mercedes|Audi|Porsche|Renault|Peugeot|Fiat|' +
    'Hyundai|Kia|Nissan|Mazda|Subaru|Yamaha|Panasonic|Philips|Bosch|Intel Corporation|Oracle Corporation|' +
    'International Monetary Fund|IMF|WHO|World Health Organization|Interpol|Greenpeace|Red Cross',
);

/** Countries, states and cities: LOCATION with subType GPE. */
export const GPE_LOCATIONS = set(
  'United States|USA|U.S|US|America|United Kingdom|UK|U.K|Britain|Great Britain|England|Scotland|Wales|Ireland|' +
    'Canada|Mexico|Brazil|Argentina|Chile|Peru|Colombia|Venezuela|France|Germany|Spain|Portugal|Italy|' +
    'Netherlands|Holland|Belgium|Switzerland|Austria|Sweden|Norway|Denmark|Finland|Poland|Greece|Turkey|Russia|' +
    'Ukraine|China|Japan|Korea|South Korea|North Korea|India|Pakistan|Bangladesh|Indonesia|Malaysia|Singapore|' +
    'Thailand|Vietnam|Philippines|Australia|New Zealand|Egypt|Nigeria|Kenya|South Africa|Morocco|Israel|' +
    'Saudi Arabia|United Arab Emirates|UAE|Qatar|Iran|Iraq|Czech Republic|Hungary|Romania|Iceland|' +
    'California|Texas|Florida|New York|Washington|Oregon|Nevada|Arizona|Colorado|Illinois|Ohio|Michigan|' +
    'Georgia|Virginia|Massachusetts|New Jersey|Pennsylvania|Utah|Alaska|Hawaii|Ontario|Quebec|Bavaria|' +
    'London|Paris|Berlin|Madrid|Barcelona|Lisbon|Rome|Milan|Amsterdam|Brussels|Vienna|Zurich|Geneva|Munich|' +
    'Frankfurt|Hamburg|Stockholm|Oslo|Copenhagen|Helsinki|Dublin|Edinburgh|Manchester|Prague|Warsaw|Athens|' +
    'Istanbul|Moscow|Kyiv|Tokyo|Osaka|Seoul|Beijing|Shanghai|Hong Kong|Mumbai|Delhi|New Delhi|Bangalore|' +
    'Bengaluru|Hyderabad|Chennai|Dubai|Abu Dhabi|Riyadh|Jerusalem|Tel Aviv|Cairo|Lagos|Nairobi|Johannesburg|' +
    'Cape Town|Sydney|Melbourne|Auckland|Toronto|Vancouver|Montreal|Chicago|Boston|Seattle|San Francisco|' +
    'Los Angeles|San Diego|San Jose|Austin|Dallas|Houston|Denver|Phoenix|Miami|Atlanta|Las Vegas|Portland|' +
    'Philadelphia|Redwood City|Redwood Shores|Mexico City|Sao Paulo|São Paulo|Rio de Janeiro|Buenos Aires|' +
    'Santiago|Lima|Bogota|Ashburn|Phoenix|Frankfurt am Main|Marseille|Lyon|Jeddah|Singapore City',
);

/** Continents, oceans, mountain ranges and other places that are not political units: subType NON_GPE. */
export const NON_GPE_LOCATIONS = set(
  'Africa|Asia|Europe|Antarctica|North America|South America|Latin America|Middle East|Oceania|Arctic|' +
    'Pacific|Atlantic|Mediterranean|Caribbean|Sahara|Alps|Andes|Himalayas|Rocky Mountains|Everest|' +
    'Mount Everest|Amazon River|Nile|Danube|Rhine|Thames|Mississippi|Silicon Valley|Scandinavia|Balkans',
);

/** Nationalities, religious and political groups (OCI type NORP). */
export const NORP = set(
  'American|Americans|British|French|German|Germans|Spanish|Italian|Italians|Portuguese|Dutch|Belgian|Swiss|' +
    'Swedish|Norwegian|Danish|Finnish|Polish|Greek|Turkish|Russian|Russians|Ukrainian|Chinese|Japanese|Korean|' +
    'Indian|Indians|Pakistani|Indonesian|Australian|Canadian|Canadians|Mexican|Brazilian|Argentine|Egyptian|' +
    'Nigerian|Kenyan|Israeli|Saudi|Irish|Scottish|European|Europeans|Asian|African|Latino|Christian|Christians|' +
    'Muslim|Muslims|Jewish|Buddhist|Hindu|Catholic|Protestant|Democrat|Democrats|Republican|Republicans',
);

export const FIRST_NAMES = set(
  'James|John|Robert|Michael|William|David|Richard|Joseph|Thomas|Charles|Christopher|Daniel|Matthew|Anthony|' +
    'Mark|Donald|Steven|Paul|Andrew|Joshua|Kenneth|Kevin|Brian|George|Edward|Ronald|Timothy|Jason|Jeffrey|Ryan|' +
    'Jacob|Gary|Nicholas|Eric|Jonathan|Stephen|Larry|Justin|Scott|Brandon|Benjamin|Samuel|Frank|Gregory|' +
    'Raymond|Alexander|Patrick|Jack|Dennis|Jerry|Tyler|Aaron|Henry|Peter|Adam|Nathan|Zachary|Kyle|Walter|' +
    'Harold|Carl|Arthur|Lawrence|Mary|Patricia|Jennifer|Linda|Elizabeth|Barbara|Susan|Jessica|Sarah|Karen|' +
    'Nancy|Lisa|Betty|Margaret|Sandra|Ashley|Kimberly|Emily|Donna|Michelle|Dorothy|Carol|Amanda|Melissa|' +
    'Deborah|Stephanie|Rebecca|Sharon|Laura|Cynthia|Kathleen|Amy|Angela|Shirley|Anna|Brenda|Pamela|Emma|' +
    'Nicole|Helen|Samantha|Katherine|Christine|Debra|Rachel|Carolyn|Janet|Catherine|Maria|Heather|Diane|' +
    'Julie|Joyce|Victoria|Olivia|Sophia|Isabella|Mia|Charlotte|Amelia|Grace|Chloe|Lucy|Alice|Claire|Hannah|' +
    'Larry|Safra|Satya|Sundar|Tim|Elon|Jeff|Bill|Steve|Sergey|Marc|Jean|Pierre|Hans|Klaus|Giovanni|Marco|' +
    'Luca|Carlos|Juan|Miguel|José|Jose|Luis|Ana|Sofia|Lucia|Mohammed|Muhammad|Ahmed|Ali|Fatima|Wei|Li|' +
    'Hiroshi|Yuki|Raj|Priya|Arjun|Ravi|Anil|Sanjay|Olga|Ivan|Dmitri|Sven|Lars|Ingrid|Max|Lewis|Sebastian|' +
    'Fernando|Valtteri|Sergio|Lando|Oscar|Alex|Sam|Chris|Pat|Jordan|Taylor|Morgan|Casey|Jamie|Jane|Anne|Kate|Tom|Joe|' +
    'Bob|Mike|Dave|Ben|Nick|Dan|Matt|Rob|Liz|Jen|Meg|Nina|Eva|Eve|Zoe|Ella|Leo|Noah|Liam|Ethan|Lucas|Oliver|Harry',
);

/** Honorifics and roles that precede a person's name. */
export const PERSON_TITLES = set(
  'Mr|Mrs|Ms|Miss|Dr|Prof|Professor|Sir|Dame|Lord|Lady|President|Senator|Governor|Mayor|Judge|Justice|' +
    'Captain|Capt|Officer|Detective|Sgt|Sergeant|General|Gen|Colonel|Col|Rev|Father|Sister|Saint|Chancellor|' +
    'Minister|Prime Minister|CEO|CTO|CFO|Chairman|Chairwoman|Director|Coach|Agent|Queen|King|Prince|Princess',
);

/** Words that make a capitalised sequence an organisation wherever they appear in it. */
export const ORGANIZATION_KEYWORDS = set(
  'Inc|Incorporated|Corp|Corporation|Ltd|Limited|LLC|LLP|GmbH|AG|SA|SAS|PLC|NV|BV|Co|Company|Group|Bank|' +
    'University|College|Institute|Foundation|Agency|Association|Systems|Technologies|Technology|Labs|' +
    'Laboratories|Airlines|Airways|Motors|Partners|Holdings|Ministry|Council|Department|Committee|Commission|' +
    'Society|Club|Racing|Industries|Solutions|Networks|Pharmaceuticals|Enterprises|Studios|Records|Hospital|' +
    'School|Church|Party|Union|Federation|Organization|Organisation|Authority|Bureau|Court|Police|Army|Navy|' +
    'Consulting|Capital|Ventures|Insurance|Bancorp|Trust|Fund|Academy|Board|Office',
);

/** Words that make a capitalised sequence a natural place (NON_GPE) or a political unit (GPE). */
export const NON_GPE_KEYWORDS = set(
  'River|Lake|Mount|Mt|Mountains|Mountain|Ocean|Sea|Island|Islands|Valley|Desert|Bay|Gulf|Peninsula|Canyon|Forest|Coast|Falls',
);
export const GPE_KEYWORDS = set('City|County|State|Province|Republic|Kingdom|District|Region|Township|Village');

export const MONTHS = set('January|February|March|April|May|June|July|August|September|October|November|December');
export const WEEKDAYS = set('Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday');

/** Verbs that, right after a capitalised name, suggest a person is speaking. */
export const SPEECH_VERBS = set(
  'said|says|told|asked|wrote|explained|added|noted|argued|announced|tweeted|replied|stated',
);

/** Prepositions that, right before a capitalised name, suggest a place. */
export const PLACE_PREPOSITIONS = set('in|from|near|across|throughout|visiting|visited|outside|inside');
