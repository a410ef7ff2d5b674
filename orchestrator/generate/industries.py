"""The curated vocabularies of edition-2 organizations, one per industry (`vocab.INDUSTRIES` reads them).

Each entry: the endings of the organization's name and of its customers' and vendors' names, eight teams (name,
ticket project key, lead's role, roles; the first four may be the persona's), products and services, components
(what tickets are about), problems (what goes wrong with a component), project and meeting topics, document
subjects and kinds, newsletters, and sentences of work mail in that industry. Lists are written as one string,
items separated by ';'. Slots in sentences: {product}, {component}, {topic}, {peer} (a colleague's first name),
{partner} (a customer or vendor company), {team}.
"""

from __future__ import annotations

RAW: dict[str, dict[str, str]] = {
    "software": {
        "suffixes": "Software; Labs; Systems; Technologies; Cloud; Digital",
        "partners": "Analytics; Data Co; Commerce; Health Tech; Payments; Networks; Media Group",
        "teams": "Engineering:ENG:Engineering manager:Software engineer,Senior engineer,Staff engineer; "
        "Product:PROD:Head of product:Product manager,Product designer; "
        "Support:SUP:Support lead:Support engineer,Support specialist; "
        "Platform:PLAT:Platform lead:Site reliability engineer,Infrastructure engineer; "
        "Sales:SALES:Sales director:Account executive,Sales engineer; "
        "Finance:FIN:Finance director:Accountant,Financial analyst; "
        "People:PEOPLE:Head of people:People partner,Recruiter; "
        "Marketing:MKT:Marketing director:Product marketing manager,Content strategist",
        "products": "the billing API; the mobile app; the analytics dashboard; single sign-on; the data export "
        "service; the admin console; the public API; the audit log; the usage reports; the team workspace",
        "components": "login service; payment webhook; search index; notification queue; CSV importer; "
        "permissions model; report builder; session cache; rate limiter; release pipeline; email renderer; "
        "billing scheduler",
        "problems": "returns a 500 for accounts with no plan; times out on exports over 50,000 rows; drops events "
        "during deploys; shows stale data after a role change; sends duplicate reminders; fails for names with "
        "an apostrophe; is slow for workspaces with many projects; logs users out after an hour; rejects valid "
        "API keys after rotation; miscounts seats on annual plans",
        "topics": "Q3 roadmap; SSO rollout for enterprise customers; API versioning plan; on-call rotation; "
        "pricing page refresh; data retention policy; mobile release 4.2; SOC 2 audit preparation; database "
        "migration; onboarding flow redesign; incident review process; customer advisory board",
        "docs": "API deprecation timeline; on-call handbook; release checklist; enterprise onboarding; "
        "database failover; quarterly OKRs; pricing experiments; accessibility review; permissions redesign; "
        "support escalation path",
        "kinds": "Design doc; Runbook; RFC; Postmortem",
        "newsletters": "DevOps Digest; The Product Letter; Cloud Native Weekly; SaaS Metrics Brief",
        "sentences": "The {component} change is behind a feature flag, so we can turn it off if support sees "
        "problems.; {partner} asked whether {product} will support their new workflow this quarter.; I would "
        "rather ship a smaller version of {product} than push the date again.; The load test on the "
        "{component} looked fine until we doubled the traffic.; We still need a decision on who owns the "
        "{component} after the reorg.; The release notes for {product} are in the shared folder for review.",
    },
    "logistics": {
        "suffixes": "Logistics; Freight; Shipping; Transport; Supply Chain; Cargo",
        "partners": "Freight Partners; Retail Group; Distribution; Foods; Wholesale; Imports; Trading Co",
        "teams": "Operations:OPS:Operations director:Operations planner,Dispatch coordinator; "
        "Fleet:FLEET:Fleet manager:Fleet coordinator,Maintenance planner; "
        "Customer Service:CS:Customer service lead:Customer service agent,Account coordinator; "
        "Warehouse:WH:Warehouse manager:Shift supervisor,Inventory controller; "
        "Sales:SALES:Sales director:Account manager,Business developer; "
        "Finance:FIN:Finance director:Accountant,Billing specialist; "
        "IT:IT:IT manager:Systems analyst,IT support specialist; "
        "People:HR:HR manager:HR partner,Recruiter",
        "products": "same-day delivery; cold-chain storage; cross-docking; pallet storage; customs brokerage; "
        "last-mile delivery; returns handling; full truckload freight; shipment tracking; bonded warehousing",
        "components": "route planner; handheld scanners; EDI gateway; dock scheduling system; label printer "
        "fleet; proof-of-delivery app; rate calculator; warehouse management system; telematics feed; customs "
        "filing integration; yard management board; driver app",
        "problems": "drops orders with a missing postcode; assigns two trucks to the same dock slot; shows the "
        "wrong delivery window; loses the signature photo; times out during the evening batch; prints labels "
        "with the old address; double-counts returned pallets; rejects shipments over 30 kg; sends tracking "
        "links that expire too early; miscalculates fuel surcharges",
        "topics": "peak season staffing; carrier contract renewal; new cross-dock opening; driver safety "
        "training; route optimization pilot; cold-chain audit; warehouse slotting review; fuel surcharge "
        "update; returns process redesign; customs clearance delays; electric van trial; quarterly business "
        "review with the largest shipper",
        "docs": "night shift handover; dock scheduling rules; carrier scorecard; peak season plan; cold-chain "
        "temperature log; damaged goods procedure; route plan for the north region; driver onboarding; "
        "customs checklist; forklift safety",
        "kinds": "SOP; Route plan; Shift handover; Incident report",
        "newsletters": "Supply Chain Brief; Freight Market Weekly; The Warehouse Report; Last Mile Letter",
        "sentences": "Two trailers from {partner} arrived late again, so the morning wave started behind.; The "
        "{component} went down for about twenty minutes during the evening pick.; {partner} wants a quote for "
        "{product} on the new lane before they sign.; We are short three drivers for next week's routes.; The "
        "damage rate on {product} is back under one percent.; Dock 4 is closed for repairs until the end of the "
        "month.",
    },
    "healthcare": {
        "suffixes": "Health; Clinics; Medical Group; Care Network; Family Practice; Health Partners",
        "partners": "Medical Supply; Laboratories; Diagnostics; Pharmacy Services; Health Plan; Imaging",
        "teams": "Clinical Operations:CLIN:Director of clinical operations:Clinic manager,Nurse coordinator; "
        "Patient Services:PAT:Patient services lead:Patient coordinator,Scheduling specialist; "
        "Billing:BILL:Revenue cycle manager:Billing specialist,Coding specialist; "
        "IT:IT:IT manager:Systems analyst,Clinical applications specialist; "
        "Quality:QUAL:Quality director:Quality analyst,Compliance officer; "
        "Finance:FIN:Finance director:Accountant,Financial analyst; "
        "People:HR:HR manager:HR partner,Credentialing specialist; "
        "Facilities:FAC:Facilities manager:Facilities coordinator,Procurement officer",
        "products": "same-day appointments; telehealth visits; annual physicals; lab draws; vaccination "
        "clinics; physical therapy; chronic care management; patient portal; after-hours nurse line; "
        "occupational health screenings",
        "components": "appointment reminders; patient portal login; e-prescribing interface; check-in kiosk; "
        "lab results feed; insurance eligibility check; fax server; referral queue; waiting room display; "
        "charting templates; claims export; provider schedule",
        "problems": "sends reminders for cancelled visits; shows another clinic's hours; rejects valid insurance "
        "IDs; holds results longer than a day; loses the referral attachment; double-books the first slot of "
        "the day; prints the wrong provider on the summary; times out during morning check-in; misses "
        "the prior authorization flag; shows an outdated medication list",
        "topics": "flu season staffing; new clinic opening; patient no-show rates; telehealth expansion; "
        "accreditation survey; front desk training; claims denial review; vaccine storage audit; provider "
        "recruiting; patient satisfaction results; after-hours coverage; electronic records upgrade",
        "docs": "front desk check-in; vaccine cold storage; no-show follow-up; provider onboarding; "
        "infection control; after-hours escalation; claims denial appeals; new patient intake; clinic "
        "opening checklist; HIPAA training",
        "kinds": "Protocol; Policy; Clinic checklist; Quality report",
        "newsletters": "Clinic Operations Digest; Health IT Weekly; The Practice Manager; Care Quality Brief",
        "sentences": "The {component} issue meant the front desk called patients by hand this morning.; "
        "{partner} moved our supply delivery to the afternoon, which works better for the clinics.; Demand for "
        "{product} is up again, mostly in the evening slots.; Please make sure every clinic has the updated "
        "consent forms before the survey.; Two providers are out next week, so we will close the weekend "
        "schedule.; The {team} team asked for a simpler way to see open referrals.",
    },
    "retail": {
        "suffixes": "Outfitters; Home Goods; Market; Stores; Supply Co; Retail",
        "partners": "Textiles; Brands; Packaging; Wholesale; Apparel; Home Products; Distributors",
        "teams": "Store Operations:STORE:Head of store operations:Regional manager,Store operations analyst; "
        "Merchandising:MERCH:Merchandising director:Buyer,Merchandise planner; "
        "E-commerce:ECOM:E-commerce director:Web producer,E-commerce analyst; "
        "Customer Care:CARE:Customer care lead:Customer care agent,Returns specialist; "
        "Supply Chain:SCM:Supply chain director:Replenishment analyst,Logistics coordinator; "
        "Finance:FIN:Finance director:Accountant,Financial analyst; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "Marketing:MKT:Marketing director:Campaign manager,Social media manager",
        "products": "the spring collection; the loyalty program; gift cards; click-and-collect; the outlet "
        "line; home delivery; the private label range; online returns; the holiday catalogue; in-store repairs",
        "components": "checkout page; point-of-sale terminals; loyalty points engine; stock sync; promotion "
        "engine; product feed; returns portal; store inventory app; gift card balance check; order "
        "confirmation email; size guide; delivery slot picker",
        "problems": "applies the discount twice; shows items in stock that are sold out; rejects gift cards "
        "with a zero balance left; freezes during the lunch rush; sends the confirmation without the order "
        "number; loses the basket after login; shows last season's prices; books delivery slots on closed "
        "days; rounds refunds down; skips stores in the western region",
        "topics": "holiday season planning; spring collection launch; store refit program; loyalty program "
        "relaunch; markdown strategy; shrinkage review; new store opening; supplier terms renegotiation; "
        "returns policy update; weekend staffing; marketplace expansion; customer survey results",
        "docs": "visual merchandising guide; markdown calendar; store opening checklist; returns policy; "
        "holiday staffing plan; supplier code of conduct; loyalty tiers; stocktake procedure; click-and-collect "
        "process; price change process",
        "kinds": "Playbook; Store guide; Trading review; Policy",
        "newsletters": "Retail Week Digest; The Merchandiser; Store Ops Brief; E-commerce Insider",
        "sentences": "Sales of {product} were ahead of plan in the city stores and behind everywhere else.; "
        "{partner} confirmed the next shipment, but two sizes are still on back order.; The {component} issue "
        "cost us about an hour of online orders over the weekend.; We should agree on the markdown depth before the "
        "stores get the new price labels.; Store managers asked for the planogram changes a week earlier.; "
        "Returns on {product} are higher than last year, mostly for fit.",
    },
    "manufacturing": {
        "suffixes": "Manufacturing; Industries; Components; Fabrication; Precision; Works",
        "partners": "Steel; Plastics; Machine Tools; Automotive; Electronics; Metals; Industrial Supply",
        "teams": "Production:PROD:Plant manager:Production supervisor,Process engineer; "
        "Quality:QA:Quality manager:Quality engineer,Quality inspector; "
        "Maintenance:MAINT:Maintenance manager:Maintenance technician,Reliability engineer; "
        "Engineering:ENG:Engineering manager:Design engineer,Manufacturing engineer; "
        "Procurement:PROC:Procurement manager:Buyer,Supplier quality engineer; "
        "Finance:FIN:Finance director:Cost accountant,Financial analyst; "
        "People:HR:HR manager:HR partner,Training coordinator; "
        "Sales:SALES:Sales director:Account manager,Application engineer",
        "products": "machined housings; custom brackets; hydraulic fittings; injection-molded parts; sheet "
        "metal enclosures; gear assemblies; prototype runs; powder coating; precision shafts; welded frames",
        "components": "CNC line 3; paint booth controls; torque testers; MES dashboard; barcode printers; "
        "press brake; shift scheduling tool; scrap reporting form; coordinate measuring machine; compressor "
        "monitoring; ERP work orders; tooling inventory",
        "problems": "stops mid-cycle on long jobs; reports scrap twice; shows the wrong revision of the "
        "drawing; loses calibration after a restart; prints labels with the old part number; lags an hour "
        "behind the line; rejects parts inside tolerance; forgets the night shift's entries; overheats on the "
        "second shift; miscounts finished units",
        "topics": "second shift staffing; preventive maintenance schedule; ISO audit preparation; new press "
        "installation; scrap reduction project; supplier quality review; capacity plan for next quarter; lean "
        "training; safety walk findings; energy use on the paint line; tooling budget; customer audit visit",
        "docs": "lockout tagout; first article inspection; changeover checklist; supplier corrective action; "
        "preventive maintenance plan; shift handover; control plan for the bracket line; safety walk "
        "findings; capacity model; scrap analysis",
        "kinds": "Work instruction; Control plan; 8D report; Maintenance plan",
        "newsletters": "Plant Floor Weekly; Manufacturing Insights; Lean Digest; Quality Progress Brief",
        "sentences": "Line 2 ran about six hours short this week because of the {component}.; {partner} "
        "sent the revised drawings for {product}, and the tolerances changed again.; Scrap on {product} is "
        "down since the new fixture went in.; The auditors want to see the calibration records for every "
        "gauge on the floor.; We need the maintenance window confirmed before we promise the delivery date.; "
        "The {team} team found the root cause, but the fix needs a new tool.",
    },
    "finance": {
        "suffixes": "Capital; Financial; Wealth Partners; Advisors; Credit Union; Asset Management",
        "partners": "Holdings; Investments; Insurance; Partners; Family Office; Trust Company",
        "teams": "Operations:OPS:Head of operations:Operations analyst,Settlements specialist; "
        "Risk:RISK:Chief risk officer:Risk analyst,Credit analyst; "
        "Compliance:COMP:Head of compliance:Compliance analyst,KYC specialist; "
        "Client Services:CLIENT:Client services director:Relationship manager,Client associate; "
        "Technology:TECH:Technology director:Software engineer,Data engineer; "
        "Finance:FIN:Finance director:Accountant,Financial controller; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "Marketing:MKT:Marketing director:Marketing manager,Content strategist",
        "products": "managed portfolios; the business credit line; quarterly client statements; the mobile "
        "banking app; retirement accounts; foreign exchange payments; the savings account; online onboarding; "
        "small business loans; wire transfers",
        "components": "statement generator; KYC checks; trade reconciliation; payments gateway; client "
        "portal; fraud rules; risk dashboard; loan origination workflow; FX rate feed; document vault; "
        "account opening form; end-of-day batch",
        "problems": "shows the previous quarter's balance; flags every transfer over the limit; misses trades "
        "booked after the cutoff; rejects addresses with a unit number; times out during the end-of-day run; "
        "attaches the wrong client's statement; rounds fees the wrong way; loses uploads over 10 MB; shows "
        "yesterday's exchange rates; sends duplicate alerts",
        "topics": "quarter-end close; regulatory reporting deadline; client onboarding backlog; fee "
        "schedule review; annual audit; new custody provider; fraud rules tuning; model validation; "
        "investment committee; stress test results; branch consolidation; client survey results",
        "docs": "quarter-end close checklist; KYC refresh procedure; fee schedule; vendor due diligence; "
        "business continuity plan; complaint handling; investment policy; reconciliation breaks; board risk "
        "report; wire transfer controls",
        "kinds": "Policy; Procedure; Committee paper; Risk assessment",
        "newsletters": "Markets Morning Brief; The Compliance Letter; Wealth Management Weekly; Fintech Digest",
        "sentences": "{partner} asked for their statements by the end of the week, before their board meets.; "
        "The {component} flagged a batch of payments this morning, most of them false positives.; We are "
        "still waiting for the auditors' list of samples.; The new fee schedule for {product} needs sign-off "
        "from compliance first.; Reconciliation breaks are down, but the old ones still need owners.; The "
        "{team} team wants a walkthrough of the controls before the review.",
    },
    "education": {
        "suffixes": "Academy; Learning; College; Education; School of Design; Institute",
        "partners": "Publishing; Education Services; Learning Systems; Foundation; School District; Press",
        "teams": "Academics:ACAD:Dean of studies:Program director,Curriculum designer; "
        "Student Services:STU:Student services director:Student advisor,Admissions officer; "
        "IT:IT:IT director:Learning systems administrator,IT support specialist; "
        "Admissions:ADM:Admissions director:Admissions counselor,Enrollment analyst; "
        "Faculty Support:FAC:Faculty support lead:Instructional designer,Teaching assistant coordinator; "
        "Finance:FIN:Finance director:Bursar,Financial aid officer; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "Marketing:MKT:Marketing director:Marketing manager,Communications officer",
        "products": "the evening degree program; online short courses; the summer school; tutoring "
        "sessions; the teacher training certificate; continuing education credits; the language courses; "
        "campus tours; the scholarship program; exam preparation",
        "components": "learning platform; grade book; enrollment form; timetable builder; library login; "
        "exam proctoring tool; student ID printer; course catalogue; attendance app; tuition payment page; "
        "transcript export; video lecture player",
        "problems": "hides grades after the deadline; lets students enroll in full classes; shows last term's "
        "timetable; logs students out during exams; rejects payments in two installments; exports transcripts "
        "without the final term; drops attendance entries made offline; sends reminders to graduates; "
        "double-books lecture rooms; loses uploaded assignments",
        "topics": "fall term timetable; accreditation review; new student orientation; online program "
        "launch; exam period logistics; faculty hiring; tuition changes; course evaluation results; "
        "scholarship committee; learning platform migration; open day planning; graduation ceremony",
        "docs": "exam period logistics; academic integrity policy; orientation week schedule; course "
        "proposal template; grading guidelines; accessibility accommodations; faculty handbook; open day "
        "plan; enrollment forecast; timetable rules",
        "kinds": "Course proposal; Policy; Committee minutes; Handbook",
        "newsletters": "Higher Ed Weekly; The Teaching Digest; EdTech Brief; Campus Operations Letter",
        "sentences": "Enrollment for {product} is ahead of last year, mostly from returning students.; The "
        "{component} issue came up again in the student survey.; {partner} sent the revised price list for "
        "next term's course materials.; Faculty asked for the grading deadline to move by two days.; We still "
        "need rooms for three evening sections.; The {team} team is collecting feedback on the new timetable.",
    },
    "media": {
        "suffixes": "Media; Studios; Publishing; Productions; Broadcasting; Press",
        "partners": "Entertainment; Agency; Brands; Records; Pictures; Events; Sports",
        "teams": "Editorial:ED:Editor in chief:Editor,Staff writer; "
        "Production:PRD:Head of production:Producer,Video editor; "
        "Audience:AUD:Audience director:Audience analyst,Social media editor; "
        "Ad Sales:ADS:Ad sales director:Account manager,Campaign manager; "
        "Technology:TECH:Technology director:Software engineer,Platform engineer; "
        "Finance:FIN:Finance director:Accountant,Rights and royalties analyst; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "Legal:LEGAL:General counsel:Rights specialist,Paralegal",
        "products": "the morning newsletter; the weekly podcast; sponsored video series; the subscription "
        "bundle; the events program; the archive license; branded content packages; the documentary slate; "
        "the live stream; the mobile news app",
        "components": "content management system; paywall; video encoder; ad server; newsletter sender; "
        "comments moderation queue; podcast feed; image library; analytics dashboard; subscription checkout; "
        "push alert tool; live blog",
        "problems": "publishes drafts without the embargo; shows the paywall to subscribers; encodes video "
        "without captions; serves the same ad twice on a page; sends the newsletter twice; loses image "
        "credits on upload; drops episodes from the feed; counts bot traffic as readers; crashes during "
        "breaking news; misses push alerts on older phones",
        "topics": "fall programming slate; subscription price change; election night coverage; podcast "
        "network launch; advertiser upfront; archive digitization; newsroom reorganization; video strategy; "
        "audience growth targets; rights renewal; festival partnership; style guide update",
        "docs": "election night plan; corrections policy; sponsored content guidelines; podcast launch "
        "plan; style guide; rights clearance checklist; breaking news workflow; audience targets; "
        "production schedule; embargo rules",
        "kinds": "Editorial plan; Production schedule; Brief; Guidelines",
        "newsletters": "Press Gazette Weekly; The Audience Letter; Podcast Business Brief; Ad Market Digest",
        "sentences": "{partner} wants to renew their sponsorship of {product}, but with a smaller budget.; The "
        "{component} slowed everything down during last night's live coverage.; Subscriptions from {product} "
        "are ahead of plan for the quarter.; Legal still needs to clear two of the archive clips.; We should "
        "lock the schedule before the freelancers book other work.; The {team} team would like an earlier "
        "deadline for copy on weekends.",
    },
    "energy": {
        "suffixes": "Energy; Power; Renewables; Utilities; Solar; Grid Services",
        "partners": "Engineering; Construction; Turbines; Electric; Industrial; Energy Services; Materials",
        "teams": "Operations:OPS:Head of operations:Control room operator,Operations engineer; "
        "Field Services:FIELD:Field services manager:Field technician,Crew scheduler; "
        "Asset Management:ASSET:Asset management director:Asset engineer,Reliability analyst; "
        "Customer Service:CS:Customer service lead:Customer service agent,Billing specialist; "
        "Engineering:ENG:Engineering manager:Electrical engineer,Project engineer; "
        "Finance:FIN:Finance director:Accountant,Energy trader; "
        "People:HR:HR manager:HR partner,Safety trainer; "
        "Regulatory:REG:Regulatory affairs director:Regulatory analyst,Permitting specialist",
        "products": "rooftop solar installations; the green tariff; battery storage; EV charging "
        "stations; home energy audits; the business energy contract; smart meter installs; the community "
        "solar program; demand response; heat pump installations",
        "components": "outage map; smart meter feed; SCADA alarms; crew dispatch app; billing run; "
        "inverter monitoring; customer portal; asset register; work order system; load forecast model; "
        "meter reading import; substation cameras",
        "problems": "shows outages that are already fixed; misses readings from older meters; raises "
        "alarms for sensors under maintenance; sends crews to the old address; bills estimated usage twice; "
        "reports zero output at dawn; times out during storms; loses photos from the field; forecasts peak "
        "load a day late; shows the wrong tariff",
        "topics": "winter readiness; substation upgrade; storm response review; solar farm commissioning; "
        "tariff change; vegetation management program; meter replacement program; battery storage pilot; "
        "safety stand-down; regulatory filing; grid connection queue; crew overtime budget",
        "docs": "storm response plan; switching procedure; meter replacement schedule; safety stand-down "
        "notes; tariff change plan; commissioning checklist; outage communication; vegetation management; "
        "permit tracker; asset condition report",
        "kinds": "Procedure; Field guide; Project plan; Safety bulletin",
        "newsletters": "Utility Dive Weekly; Grid Operations Brief; Renewables Digest; Energy Policy Letter",
        "sentences": "Crews cleared most of the outages overnight, but two feeders are still on generators.; "
        "{partner} pushed the delivery of the transformers to next month.; The {component} alarms went off "
        "again without a fault on the line.; Sign-ups for {product} doubled after the mailing.; We need the "
        "permits in hand before the crews can start on site.; The {team} team asked for a clearer handover "
        "between shifts.",
    },
    "hospitality": {
        "suffixes": "Hotels; Hospitality; Resorts; Restaurant Group; Inns; Suites",
        "partners": "Travel; Events; Catering; Tours; Linen Services; Beverages; Food Supply",
        "teams": "Front Office:FO:Front office manager:Front desk supervisor,Reservations agent; "
        "Food and Beverage:FB:Food and beverage director:Restaurant manager,Sous chef; "
        "Housekeeping:HK:Executive housekeeper:Housekeeping supervisor,Laundry coordinator; "
        "Sales and Events:EVENTS:Director of sales:Events manager,Group sales manager; "
        "Revenue:REV:Revenue director:Revenue analyst,Distribution manager; "
        "Finance:FIN:Finance director:Accountant,Purchasing coordinator; "
        "People:HR:HR manager:HR partner,Training coordinator; "
        "Maintenance:ENGR:Chief engineer:Maintenance technician,Facilities coordinator",
        "products": "the weekend package; conference rooms; the rooftop bar; group bookings; the spa day; "
        "late checkout; wedding packages; the loyalty program; airport transfers; the breakfast buffet",
        "components": "booking engine; key card encoder; property management system; housekeeping app; "
        "channel manager; point-of-sale terminals; guest wifi portal; room service tablet; rate loader; "
        "event booking calendar; minibar billing; guest feedback survey",
        "problems": "overbooks the deluxe rooms; encodes keys for the wrong floor; shows rooms as clean "
        "before inspection; charges the minibar twice; pushes old rates to travel sites; loses special "
        "requests on modified bookings; logs guests off the wifi every hour; double-books the ballroom; "
        "sends surveys to cancelled guests; prints the bill without the deposit",
        "topics": "summer season staffing; wedding season; rate strategy for the holidays; lobby "
        "renovation; new menu launch; guest satisfaction scores; group booking pipeline; energy savings "
        "program; loyalty program changes; conference season; spa opening; breakfast service review",
        "docs": "check-in standards; wedding package menu; housekeeping inspection list; group booking "
        "terms; allergen matrix; lobby renovation plan; holiday rate plan; lost and found procedure; banquet "
        "event order; fire drill plan",
        "kinds": "Standard; Event order; Service guide; Operations plan",
        "newsletters": "Hotel News Weekly; The Revenue Manager; Hospitality Tech Brief; Food Service Digest",
        "sentences": "{partner} confirmed forty rooms for their conference but still wants a better rate.; "
        "The {component} problem meant the front desk checked guests in by hand for an hour.; Occupancy for "
        "{product} is ahead of last year for the same weekend.; Two housekeepers are out sick, so late "
        "checkouts need approval today.; Guests keep mentioning the slow breakfast service in their "
        "reviews.; The {team} team wants the event orders a week earlier.",
    },
    "legal": {
        "suffixes": "Law Group; Legal; Law LLP; Law Offices; Legal Services; Counsel",
        "partners": "Holdings; Properties; Insurance; Industries; Ventures; Bank; Developments",
        "teams": "Litigation:LIT:Head of litigation:Associate,Paralegal; "
        "Corporate:CORP:Head of corporate:Associate,Corporate paralegal; "
        "Practice Support:PS:Practice support manager:Legal assistant,Docketing specialist; "
        "Knowledge:KM:Knowledge manager:Research librarian,Legal technologist; "
        "Business Development:BD:Business development director:Proposal writer,Marketing coordinator; "
        "Finance:FIN:Finance director:Billing coordinator,Accountant; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "IT:IT:IT manager:Systems administrator,Litigation support specialist",
        "products": "contract review; employment advice; lease negotiations; trademark filings; due "
        "diligence reviews; the fixed-fee startup package; dispute resolution; regulatory advice; estate "
        "planning; compliance training",
        "components": "document management system; time entry app; e-billing export; conflict check; "
        "docketing calendar; e-signature workflow; matter intake form; court filing portal; clause library; "
        "client extranet; redlining tool; billing rates table",
        "problems": "files documents under the wrong matter; loses time entries made on mobile; rejects "
        "invoices with more than one rate; misses parties with a similar name; shows the wrong court "
        "deadline; sends envelopes without the last page; drops attachments from intake; locks documents "
        "after check-in; shows last year's rates; duplicates clauses on export",
        "topics": "year-end billing; new client intake process; trial preparation; conflict check policy; "
        "associate training program; panel review with a large client; document retention; fee arrangement "
        "review; e-discovery vendor selection; partner retreat; knowledge base cleanup; pro bono program",
        "docs": "engagement letter template; litigation hold procedure; billing guidelines; conflict check "
        "policy; matter opening checklist; closing memo template; document retention schedule; e-discovery "
        "plan; associate training plan; pro bono policy",
        "kinds": "Memo; Checklist; Policy; Template",
        "newsletters": "Legal Week Digest; The Practice Management Letter; Legal Tech Brief; Litigation Weekly",
        "sentences": "{partner} asked for a fixed fee on the next phase, so we need a budget this week.; The "
        "{component} problem meant two filings went in by hand.; Opposing counsel agreed to extend the "
        "deadline by ten days.; Please record time against the right matter before the billing run.; The "
        "client wants the draft of {product} terms before their board meeting.; The {team} team is updating "
        "the precedent bank for the new rules.",
    },
    "nonprofit": {
        "suffixes": "Foundation; Trust; Alliance; Community Services; Relief; Initiative",
        "partners": "Foundation; Community Fund; Trust; Council; Partners; Charitable Fund; Association",
        "teams": "Programs:PROG:Programs director:Program manager,Program officer; "
        "Fundraising:FUND:Development director:Grant writer,Donor relations officer; "
        "Volunteers:VOL:Volunteer coordinator lead:Volunteer coordinator,Outreach worker; "
        "Operations:OPS:Operations director:Operations coordinator,Office manager; "
        "Communications:COMMS:Communications director:Communications officer,Social media coordinator; "
        "Finance:FIN:Finance director:Accountant,Grants accountant; "
        "People:HR:HR manager:HR partner,Recruiter; "
        "Data:DATA:Data and impact lead:Impact analyst,Database administrator",
        "products": "the food bank program; after-school tutoring; the youth mentoring program; emergency "
        "housing support; the literacy program; the summer camp; legal aid clinics; the adult job training "
        "course; meal deliveries; the community garden",
        "components": "donation page; donor database; volunteer signup form; grant tracker; event "
        "registration; newsletter list; impact dashboard; gift aid export; case management system; receipt "
        "generator; shift rota; mailing list import",
        "problems": "charges recurring gifts twice; sends receipts without the tax number; loses volunteer "
        "shift choices; shows last year's totals; rejects international addresses; imports duplicates of "
        "every donor; misses the grant report date; double-books the training room; drops gift aid "
        "declarations; logs out volunteers mid-signup",
        "topics": "annual appeal; grant renewal; volunteer week; gala dinner planning; impact report; board "
        "meeting preparation; new community hub; donor retention; winter shelter; program evaluation; "
        "corporate partnerships; youth summit",
        "docs": "safeguarding policy; grant report; volunteer handbook; gala run sheet; impact framework; "
        "donor privacy notice; program evaluation plan; winter shelter rota; trustee briefing; partnership "
        "agreement",
        "kinds": "Grant report; Board paper; Policy; Program plan",
        "newsletters": "Nonprofit Times Digest; The Fundraising Letter; Charity Sector Brief; Civil Society Weekly",
        "sentences": "{partner} confirmed the grant for {product}, with the report due at the end of the "
        "year.; The {component} problem means some donors got two thank-you letters.; We have more volunteers "
        "than shifts for the weekend, which is a good problem.; The board asked for the impact numbers before "
        "the next meeting.; Demand for {product} went up again this month.; The {team} team would like the "
        "event budget confirmed by the end of the month.",
    },
}
