package main

import (
	"math/rand/v2"
	"slices"
	"strings"
)

// Word lists of the search benchmarks' generated members and posts: names
// as a community of several countries has them, and a vocabulary of a few
// thousand English words ranked roughly by how often people write them.

var firstNames = strings.Fields(`
	Aaron Abigail Ada Adam Adrian Agnes Ahmed Aisha Alan Albert Alejandro Alex Alexander Alexandra Alice Alicia
	Amanda Amelia Amir Amy Ana Anders Andrea Andrew Angela Anna Anne Anthony Antoine Antonio Arjun Arthur Astrid
	Audrey Ava Barbara Beatriz Ben Benjamin Bernard Beth Bianca Bogdan Brandon Brian Bruno Camille Carla Carlos
	Carmen Caroline Catherine Cecilia Charles Charlotte Chen Chloe Christian Christina Christopher Claire Clara
	Claudia Colin Connor Daniel Daniela David Deborah Dennis Diana Diego Dimitri Dominic Dorothy Duncan Edward
	Elena Eleanor Elif Elijah Elizabeth Ella Emily Emma Emmanuel Eric Erik Esther Ethan Eva Fatima Felix Fernando
	Fiona Florian Francesca Francis Frank Gabriel Gabriela Georg George Gerald Giulia Grace Gregory Hana Hannah
	Harold Harry Hassan Heather Helen Henry Hiroshi Hugo Ian Ibrahim Ines Ingrid Irene Isaac Isabel Isabella Ivan
	Jack Jacob James Jan Jane Javier Jennifer Jessica Joan Joanna Johan John Jonathan Jorge Jose Joseph Joshua
	Julia Julian Julien Karen Karim Katarzyna Kate Katherine Keith Kenji Kevin Kim Klaus Laura Lauren Leila Leo
	Leon Liam Lily Linda Lisa Lorenzo Louis Lucas Lucia Luis Luka Madeleine Magnus Malik Manuel Marco Margaret
	Maria Mariana Marie Mark Marta Martin Mary Mateo Matthew Maya Mehmet Melissa Mia Michael Michelle Miguel Mila
	Mohamed Natalia Nathan Nicholas Nicole Nikolai Nina Noah Nora Olga Oliver Olivia Omar Oscar Pablo Patricia
	Patrick Paul Paula Pedro Peter Philip Pierre Priya Rachel Rafael Rahul Raj Rebecca Ricardo Richard Robert
	Rosa Ruth Ryan Samuel Sandra Sara Sarah Sebastian Sergei Simon Sofia Sophie Stefan Stephanie Stephen Susan
	Sven Takumi Tanya Theresa Thomas Timothy Tobias Tomas Valentina Vanessa Victor Victoria Vikram Vincent
	Walter William Xavier Yasmin Yuki Yusuf Zainab Zoe`)

var lastNames = strings.Fields(`
	Abbott Adams Ahmed Alexander Ali Allen Almeida Alvarez Andersen Anderson Andersson Armstrong Bailey Baker
	Banerjee Barnes Bauer Becker Bell Bennett Berg Bernard Bianchi Bishop Black Blanc Bose Brooks Brown Bruno
	Burke Butler Campbell Carlsson Carter Castro Chan Chang Chaudhry Chen Clark Coleman Collins Conti Cook Cooper
	Costa Cox Cruz Cunningham Dahl Davies Davis Dean Diaz Dubois Duncan Dunn Durand Edwards Ellis Eriksson Evans
	Fabre Farah Ferguson Fernandes Fernandez Ferrari Fischer Fisher Fleming Ford Foster Fournier Fox Francis
	Garcia Gardner Gibson Gomez Gonzalez Gordon Graham Grant Gray Green Greene Griffin Gupta Hall Hamilton Hansen
	Harris Harrison Hart Hayes Henderson Hernandez Hill Hoffmann Holmes Howard Huang Hughes Hunt Hussain Ibrahim
	Ito Jackson James Jansen Jensen Johansson Johnson Jones Jordan Kaiser Kapoor Kaur Keller Kelly Kennedy Khan
	Kim King Klein Knight Kowalski Kruger Kumar Lambert Lane Larsen Laurent Lee Lefebvre Lewis Li Lindberg Lindqvist
	Liu Lopez Lovelace Lund Lynch Marshall Martin Martinez Mason Matsumoto Mayer Mehta Meyer Miller Mitchell Moore
	Morales Moreau Moreno Morgan Morris Muller Murphy Murray Nakamura Nguyen Nielsen Novak Nowak Obrien Olsen
	Olson Ortiz Owen Palmer Park Parker Patel Pereira Perez Perry Peters Petrov Phillips Pierce Popescu Powell
	Price Quinn Ramirez Ramos Reddy Reed Reyes Reynolds Ricci Richardson Rivera Roberts Robinson Rodriguez Rogers
	Romano Rossi Russell Ryan Sanchez Santos Sato Schmidt Schneider Schulz Scott Shah Sharma Shaw Silva Simmons
	Simpson Singh Smith Snyder Sokolov Stewart Stone Sullivan Suzuki Svensson Tanaka Taylor Thomas Thompson
	Torres Tran Turner Vargas Volkov Wagner Walker Wallace Wang Ward Watson Weber Wells West White Williams
	Wilson Wong Wood Wright Wu Yamamoto Yang Young Zhang Zhao Zimmermann`)

var jobTitles = []string{
	"Product Manager", "Senior Product Manager", "Head of Product", "Chief Product Officer", "Product Designer",
	"UX Researcher", "Software Engineer", "Senior Software Engineer", "Staff Engineer", "Engineering Manager",
	"VP Engineering", "Chief Technology Officer", "Data Scientist", "Data Analyst", "Data Engineer",
	"Machine Learning Engineer", "DevOps Engineer", "Site Reliability Engineer", "Security Engineer",
	"QA Engineer", "Technical Writer", "Marketing Manager", "Growth Marketer", "Content Strategist",
	"Brand Designer", "Sales Director", "Account Executive", "Customer Success Manager", "Support Lead",
	"Operations Manager", "Project Manager", "Program Manager", "Scrum Master", "Agile Coach",
	"Chief Executive Officer", "Founder", "Co-founder", "Consultant", "Business Analyst", "Finance Director",
	"Controller", "HR Business Partner", "Recruiter", "Talent Partner", "Learning Designer", "Teacher",
	"Professor", "Researcher", "Nurse Practitioner", "Physician", "Architect", "Community Manager",
}

var companies = strings.Fields(`
	Acme Globex Initech Umbrella Hooli Vandelay Stark Wayne Wonka Cyberdyne Soylent Tyrell Aperture Oscorp
	Massive Dynamic Gringotts Monarch Nakatomi Virtucon Prestige Pied Piper Dunder Sterling Cooper Bluth
	Northwind Contoso Fabrikam Adventure Tailspin Litware Proseware Fourth Coffee Wingtip Woodgrove Alpine
	Blue Yonder Margie Lucerne Trey Humongous Datum Relecloud Southridge Tessera Quantum Meridian Helios
	Nimbus Vertex Apex Summit Keystone Beacon Harbor Lighthouse Evergreen Redwood Cedar Granite Cobalt Zenith
	Orbit Atlas Polaris Horizon Pinnacle Catalyst Spectrum Fusion Nova Lumen Aurora Solstice Equinox Tandem
	Bright Future Open Field Clear Path Silver Line Red Rock Blue Ocean Green Leaf Iron Bridge`)

// functionWords are the most frequent words of written English, in about
// the order of their frequency: they head the vocabulary's ranking.
var functionWords = strings.Fields(`
	the to and of a in i is that it for you was with on as have but be they we at this not are or from my so
	if all there what about just can by one more like do out when an would their will up he she has me your
	our were been them had some how no which who its than then also because very into only other these get
	could should any much even over after most those many well really now here think know people time make
	see way work good new first need want use still back through where why same own may each while being
	both between under again never before every since few down last off long great little right too around`)

// contentWords are the vocabulary of a community of professionals learning
// together; words of five letters and more, where typos are forgiven, are
// most of them.
var contentWords = strings.Fields(`
	product team design data customer user research feature release roadmap strategy market price pricing
	growth metric goal plan planning sprint backlog story ticket meeting workshop interview discovery
	experiment result insight report dashboard analysis analytics model forecast budget revenue cost margin
	profit sales lead account contract deal partner vendor supplier launch campaign brand message content
	video podcast article book course lesson class student teacher mentor coach manager leader leadership
	director engineer developer designer analyst scientist writer editor founder investor board company
	startup business industry sector health finance bank insurance retail travel energy climate education
	school university hospital clinic patient doctor nurse care service support ticket incident outage bug
	issue problem solution idea question answer advice feedback review comment opinion example template
	checklist guide process framework method practice habit skill career job role hire hiring onboarding
	training culture value mission vision principle decision tradeoff priority scope deadline estimate
	quarter month week today tomorrow yesterday morning evening weekend holiday conference event summit
	panel talk speaker slide deck demo prototype sketch wireframe mockup component system platform
	service server database cloud network security privacy compliance regulation policy legal contract
	migration integration deployment pipeline release version update upgrade test testing quality review
	performance latency scale scaling reliability availability monitoring logging alert metric signal
	noise pattern trend change risk issue challenge opportunity benefit impact outcome output effort
	capacity resource people talent remote office hybrid travel commute coffee lunch dinner city country
	europe america asia africa london berlin paris lisbon madrid tokyo singapore toronto sydney chicago
	question community forum thread member group channel network friend colleague stakeholder sponsor
	executive customer client buyer persona segment cohort funnel conversion retention churn engagement
	activation acquisition referral subscription license seat plan tier discount trial freemium premium
	enterprise small medium large global local national regional international digital mobile desktop
	browser application website email newsletter notification message chat search filter sort tag label
	folder document spreadsheet presentation calendar schedule reminder task project milestone deliverable
	requirement specification architecture interface contract protocol standard format language python
	javascript typescript golang java kotlin swift react kubernetes docker terraform postgres kafka spark
	machine learning artificial intelligence neural network language model prompt agent automation robot
	workflow tooling library package dependency framework runtime compiler debugger editor terminal
	keyboard screen camera microphone speaker headset laptop phone tablet device hardware software
	storage memory processor battery power light sound color shape space window door table chair desk
	garden kitchen house home family child parent mother father sister brother partner husband wife
	friend neighbor stranger person human animal dog cat bird tree flower river mountain ocean island
	weather winter spring summer autumn rain snow wind storm sun moon star planet world history future
	story chapter page word sentence paragraph letter number figure chart graph table column row cell
	value price amount total average median percent ratio rate speed distance weight height length size
	simple complex clear obvious subtle strong weak fast slow early late quick careful honest direct
	useful helpful practical theoretical technical strategic tactical operational financial legal social
	personal professional creative analytical curious patient generous humble confident nervous excited
	tired happy grateful surprised disappointed frustrated worried hopeful proud sorry thankful ready
	important interesting different difficult possible available common popular recent current modern
	traditional classic original typical special specific general public private open closed free busy
	agree disagree believe understand remember forget explain describe discuss consider suggest recommend
	share learn teach study read write listen speak talk ask answer help support build create improve
	measure test launch ship deliver manage lead follow start finish continue stop begin end move grow
	reduce increase change choose decide prefer expect hope wonder imagine notice realize wish happen
	appear become remain seem feel look sound taste touch watch play enjoy love hate like miss lose win
	found wrote thought brought taught bought caught meant spent built sent felt kept left lost paid sold
	told heard understood stood chose spoke broke drove rode wore tore froze woke gave took came became
	quickly slowly clearly honestly probably actually basically certainly definitely especially finally
	generally usually often sometimes always rarely recently currently already almost nearly quite rather
	together alone instead anyway however therefore although unless whether whereas meanwhile otherwise
	perhaps maybe indeed anyway thanks please welcome congratulations hello everyone anyone someone nobody
	everything something nothing anything somewhere everywhere nowhere tonight whatever whenever wherever`)

// vocabulary returns a few thousand distinct words ranked for a Zipf draw:
// the function words first, then the content words, then their
// inflections (plurals, past and -ing forms, -er and -ly derivations), each
// group in an order shuffled by rng.
func vocabulary(rng *rand.Rand) []string {
	seen := map[string]bool{}
	var head, mid, tail []string
	add := func(list *[]string, w string) {
		if w != "" && !seen[w] {
			seen[w] = true
			*list = append(*list, w)
		}
	}
	for _, w := range functionWords {
		add(&head, w)
	}
	for _, w := range contentWords {
		add(&mid, w)
	}
	for _, w := range contentWords {
		for _, f := range inflections(w) {
			add(&tail, f)
		}
	}
	for _, l := range [][]string{mid, tail} {
		rng.Shuffle(len(l), func(i, j int) { l[i], l[j] = l[j], l[i] })
	}
	return slices.Concat(head, mid, tail)
}

// inflections makes the regular derived forms of w (some of them not
// English, as "slowlier": they still read as words to a search engine).
func inflections(w string) []string {
	if len(w) < 3 {
		return nil
	}
	last := w[len(w)-1]
	stem := w
	switch {
	case last == 'e':
		stem = w[:len(w)-1]
	case last == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		stem = w[:len(w)-1] + "i"
	}
	plural := w + "s"
	switch {
	case strings.HasSuffix(w, "s"), strings.HasSuffix(w, "x"), strings.HasSuffix(w, "ch"), strings.HasSuffix(w, "sh"):
		plural = w + "es"
	case stem != w && last == 'y':
		plural = stem + "es"
	}
	ing := stem + "ing"
	if last == 'y' {
		ing = w + "ing"
	}
	out := []string{plural, stem + "ed", ing, stem + "er"}
	if !strings.HasSuffix(w, "ly") {
		out = append(out, stem+"ly")
	}
	return out
}
