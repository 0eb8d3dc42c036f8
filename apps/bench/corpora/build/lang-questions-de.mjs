// German questions added for issue 42 (lang-de), written by hand after reading the passages of the
// pages added then. Each: [text, type, evidence], evidence as in lang-questions.mjs ([page, anchor]).
// The builder marks them with the fresh split (lib.mjs `fresh`): keep their order.
export const NEW_DE = [
  // text filters
  [
    'nur die dritte Spalte aus einer CSV mit Semikolon als Trenner ausgeben',
    'how-to',
    [
      ['cut', /^-d, --delimiter/m],
      ['cut', /^-f, --fields/m],
    ],
  ],
  [
    'Wie schneide ich aus jeder Zeile nur die ersten zehn Zeichen heraus?',
    'how-to',
    [['cut', /^-c, --characters/m]],
  ],
  [
    'Zeilen, in denen das Trennzeichen gar nicht vorkommt, beim Spaltenausschneiden weglassen',
    'how-to',
    [['cut', /^-s, --only-delimited/m]],
  ],
  [
    'Wie wandle ich in der Shell einen Text komplett in Großbuchstaben um?',
    'how-to',
    [['tr', /^\[:upper:\]/m]],
  ],
  ['alle Ziffern aus einem Text entfernen mit tr', 'how-to', [['tr', /^-d, --delete/m]]],
  [
    'Wie mache ich aus mehreren aufeinanderfolgenden Leerzeichen ein einziges?',
    'how-to',
    [['tr', /^-s, --squeeze-repeats/m]],
  ],
  [
    'Wie zähle ich, wie oft jede Zeile in einer Liste vorkommt?',
    'how-to',
    [['uniq', /^-c, --count/m]],
  ],
  [
    'Warum findet uniq meine doppelten Einträge nicht, obwohl sie in der Datei mehrfach stehen?',
    'topical',
    [['uniq', 'nicht benachbart sind']],
  ],
  [
    'nur die Zeilen zeigen, die mehr als einmal vorkommen',
    'how-to',
    [['uniq', /^-d, --repeated/m]],
  ],
  ['Zeilen einer Datei zählen', 'how-to', [['wc', /^-l, --lines/m]]],
  [
    'Wie finde ich heraus, wie lang die längste Zeile einer Textdatei ist?',
    'how-to',
    [['wc', /^-L, --max-line-length/m]],
  ],
  [
    'Wie gebe ich eine Datei ohne ihre letzten fünf Zeilen aus?',
    'how-to',
    [['head', /^-n, --lines=\[-\]K/m]],
  ],
  ['nur die ersten 100 Bytes einer Datei anzeigen', 'how-to', [['head', /^-c, --bytes=\[-\]K/m]]],
  [
    'Zwei Dateien Zeile für Zeile nebeneinander zu einer zusammenfügen, mit Tab dazwischen',
    'how-to',
    [['paste', 'getrennt durch Tabulatoren']],
  ],
  [
    'Wie hänge ich alle Zeilen einer Datei zu einer einzigen Zeile mit Komma dazwischen zusammen?',
    'how-to',
    [
      ['paste', /^-s, --serial/m],
      ['paste', /^-d, --delimiters/m],
    ],
  ],
  [
    'zwei Textdateien über eine gemeinsame Kundennummer verknüpfen, so ähnlich wie ein SQL-Join',
    'known-item',
    [['join', 'Verbindungsfeld']],
  ],
  [
    'Wie zeigt join auch die Zeilen, die in der anderen Datei keinen Partner haben?',
    'how-to',
    [['join', /^-a DATEINUMMER/m]],
  ],
  [
    'Welche Zeilen haben zwei sortierte Listen gemeinsam?',
    'how-to',
    [['comm', 'comm -12 Datei1 Datei2']],
  ],
  [
    'Zeilen ausgeben, die nur in der ersten von zwei sortierten Dateien stehen',
    'how-to',
    [
      ['comm', /^-2 Spalte 2/m],
      ['comm', /^-3 Spalte 3/m],
    ],
  ],
  [
    'Wie nummeriere ich mit nl auch die leeren Zeilen mit?',
    'how-to',
    [['nl', /^-b, --body-numbering/m]],
  ],
  ['Zeilennummern bei 100 anfangen lassen', 'how-to', [['nl', /^-v, --starting-line-number/m]]],
  [
    'Wie drehe ich die Reihenfolge von Datensätzen um, die nicht durch Zeilenumbruch, sondern durch ein anderes Zeichen getrennt sind?',
    'how-to',
    [['tac', /^-s, --separator/m]],
  ],
  [
    'Wie zerlege ich eine riesige Datei in Stücke zu je 100 MB?',
    'how-to',
    [['split', /^-b, --bytes=GRÖSSE/m]],
  ],
  [
    'Teilstücke mit Zahlen statt Buchstaben am Ende benennen lassen',
    'how-to',
    [['split', /^-d, --numeric-suffixes/m]],
  ],
  [
    'eine Datei in genau vier gleich große Teile aufteilen',
    'how-to',
    [['split', /^-n, --number=TEILE/m]],
  ],
  [
    'Binärdatei als Hexadezimal-Dump anzeigen',
    'how-to',
    [
      ['od', /^-t, --format=TYP/m],
      ['od', /^-x Dasselbe wie -t x2/m],
    ],
  ],
  [
    'Wie lese ich mit od nur ein paar Bytes ab einem bestimmten Offset aus?',
    'how-to',
    [
      ['od', /^-j, --skip-bytes/m],
      ['od', /^-N, --read-bytes/m],
    ],
  ],
  [
    'Zahlen von 1 bis 100 erzeugen, alle gleich breit mit führenden Nullen',
    'how-to',
    [['seq', /^-w, --equal-width/m]],
  ],
  [
    'Wie gibt seq die Zahlen durch Kommas getrennt statt untereinander aus?',
    'how-to',
    [['seq', /^-s, --separator/m]],
  ],
  ['drei zufällige Zeilen aus einer Datei ziehen', 'how-to', [['shuf', /^-n, --head-lines/m]]],
  [
    'Wie würfle ich in der Shell eine Zufallszahl zwischen 1 und 6?',
    'how-to',
    [['shuf', /^-i, --input-range/m]],
  ],
  [
    'Ausgabe auf dem Bildschirm sehen und gleichzeitig an eine Datei anhängen statt sie zu überschreiben',
    'how-to',
    [['tee', /^-a, --append/m]],
  ],
  [
    'Wie rechne ich Byteangaben in gut lesbare Größen wie 1.5K oder 3M um?',
    'how-to',
    [['numfmt', /^--to=EINHEIT/m]],
  ],
  [
    'Angaben wie "10K" oder "2G" in eine nackte Zahl zurückverwandeln',
    'how-to',
    [['numfmt', /^--from=EINHEIT/m]],
  ],
  [
    'lange Zeilen bei 80 Zeichen umbrechen, aber nicht mitten im Wort',
    'how-to',
    [['fold', /^-s, --spaces/m]],
  ],
  [
    'Absätze eines Textes auf 60 Zeichen Breite neu umbrechen',
    'how-to',
    [['fmt', /^-w, --width=BREITE/m]],
  ],
  [
    'Wie ersetze ich nur die Tabulatoren am Zeilenanfang durch Leerzeichen?',
    'how-to',
    [['expand', /^-i, --initial/m]],
  ],
  [
    'Wie stelle ich eine Ausgabe als Tabelle mit sauber ausgerichteten Spalten dar?',
    'how-to',
    [['column', /^-t, --table/m]],
  ],
  ['column Ausgabe im JSON-Format', 'how-to', [['column', /^-J, --json/m]]],
  [
    'Wie sage ich column, dass die Felder durch Doppelpunkte getrennt sind, etwa in /etc/passwd?',
    'how-to',
    [['column', /^-s, --separator/m]],
  ],
  // files
  [
    'Beim Verschieben vorher fragen lassen, wenn eine Datei überschrieben würde',
    'how-to',
    [['mv', /^-i, --interactive/m]],
  ],
  [
    'Wie legt mv eine Sicherungskopie an, bevor es eine vorhandene Datei ersetzt?',
    'how-to',
    [
      ['mv', /^--backup\[=STEUERUNG\]/m],
      ['mv', /^-b Wie --backup/m],
    ],
  ],
  [
    'Zielverzeichnis zuerst angeben beim Verschieben, z. B. für xargs',
    'how-to',
    [['mv', /^-t, --target-directory/m]],
  ],
  [
    'Wie lösche ich eine Datei, deren Name mit einem Minuszeichen anfängt?',
    'how-to',
    [['rm', 'rm -- -foo']],
  ],
  [
    'rm soll bei vielen Dateien nur ein einziges Mal nachfragen',
    'how-to',
    [['rm', /^-I Einmal nachfragen/m]],
  ],
  [
    'Sind mit rm gelöschte Dateien wirklich weg oder kann man sie wiederherstellen?',
    'topical',
    [['rm', 'Teile des Inhalts einer Datei wiederherzustellen']],
  ],
  ['Ordner mitsamt allem Inhalt löschen', 'how-to', [['rm', /^-r, -R, --recursive/m]]],
  [
    'Wie setze ich das Änderungsdatum einer Datei auf einen bestimmten Zeitpunkt in der Vergangenheit?',
    'how-to',
    [
      ['touch', /^-t ZEITSTEMPEL/m],
      ['touch', /^-d, --date=ZEICHENKETTE/m],
    ],
  ],
  [
    'Zeitstempel von einer anderen Datei übernehmen',
    'how-to',
    [['touch', /^-r, --reference=DATEI/m]],
  ],
  [
    'touch soll keine leere Datei anlegen, falls sie noch nicht existiert',
    'how-to',
    [['touch', /^-c, --no-create/m]],
  ],
  [
    'Zugriffsrechte einer Datei als Oktalzahl wie 644 ausgeben',
    'how-to',
    [['stat', /^%a Rechte-Bits in Oktaldarstellung/m]],
  ],
  [
    'Wie frage ich mit stat Angaben zum Dateisystem statt zur Datei ab?',
    'how-to',
    [['stat', /^-f, --file-system/m]],
  ],
  [
    'Wohin zeigt ein Symlink letztlich? den vollständigen Pfad auflösen, auch über mehrere Links',
    'how-to',
    [['readlink', /^-f, --canonicalize/m]],
  ],
  [
    'relativen Pfad von einem Verzeichnis zu einer Datei berechnen',
    'how-to',
    [['realpath', /^--relative-to=VERZEICHNIS/m]],
  ],
  [
    'Wie bekomme ich den absoluten Pfad zu einer Datei, die es noch gar nicht gibt?',
    'how-to',
    [['realpath', /^-m, --canonicalize-missing/m]],
  ],
  [
    'Programm in /usr/local/bin ablegen und dabei direkt Rechte 755 und den Besitzer setzen',
    'how-to',
    [
      ['install', /^-m, --mode=MODUS/m],
      ['install', /^-o, --owner=BESITZER/m],
    ],
  ],
  [
    'install soll fehlende Zielverzeichnisse gleich mit anlegen',
    'how-to',
    [['install', /^-D Alle führenden Elemente/m]],
  ],
  [
    'Wie lege ich in einem Shellskript sicher ein temporäres Verzeichnis an?',
    'how-to',
    [['mktemp', /^-d, --directory/m]],
  ],
  ['temporäre Datei mit der Endung .txt erzeugen', 'how-to', [['mktemp', /^--suffix=SUFFIX/m]]],
  [
    'Wie sehe ich beim Schreiben eines ISO-Images auf den USB-Stick mit dd den Fortschritt?',
    'how-to',
    [['dd', /^status=STUFE/m]],
  ],
  [
    'dd läuft schon – wie bringe ich es dazu, den bisherigen Stand anzuzeigen, ohne es abzubrechen?',
    'how-to',
    [['dd', 'USR1‐Signal']],
  ],
  ['mit dd nur die ersten 10 Blöcke kopieren', 'how-to', [['dd', /^count=N/m]]],
  [
    'Datei so löschen, dass man sie nicht wiederherstellen kann',
    'how-to',
    [['shred', /^-u, --remove/m]],
  ],
  [
    'Bringt shred auf einem Dateisystem mit Journal oder auf einer SSD überhaupt etwas?',
    'topical',
    [['shred', 'ACHTUNG: shred geht davon aus']],
  ],
  [
    'nach dem Überschreiben zum Schluss mit Nullen überschreiben, damit das Schreddern nicht auffällt',
    'how-to',
    [['shred', /^-z, --zero/m]],
  ],
  [
    'Logdatei leeren, ohne sie zu löschen oder neu anzulegen',
    'how-to',
    [['truncate', /^-s, --size=GRÖSSE/m]],
  ],
  [
    'eine Datei auf exakt dieselbe Größe wie eine andere Datei bringen',
    'how-to',
    [['truncate', /^-r, --reference=RDATEI/m]],
  ],
  [
    'Besitzer und Gruppe eines ganzen Verzeichnisbaums ändern',
    'how-to',
    [['chown', /^-R, --recursive/m]],
  ],
  [
    'Wie ändere ich den Besitzer nur bei den Dateien, die gerade einem bestimmten Benutzer gehören?',
    'how-to',
    [['chown', /^--from=AKTUELLER_BESITZER/m]],
  ],
  [
    'Gruppe eines symbolischen Links selbst ändern statt die der Datei, auf die er zeigt',
    'how-to',
    [['chgrp', /^-h, --no-dereference/m]],
  ],
  [
    'Wie schneide ich im Skript die Endung .txt vom Dateinamen ab?',
    'how-to',
    [['basename', /^-s, --suffix=ENDUNG/m]],
  ],
  [
    'aus einem kompletten Dateipfad nur den Verzeichnisteil holen',
    'how-to',
    [['dirname', 'dirname /usr/bin/']],
  ],
  // checksums
  [
    'Wie prüfe ich eine heruntergeladene ISO gegen die mitgelieferte SHA256SUMS-Datei?',
    'how-to',
    [['sha256sum', /^-c, --check/m]],
  ],
  [
    'beim Prüfen der Prüfsummen Dateien überspringen, die ich gar nicht heruntergeladen habe',
    'how-to',
    [['md5sum', /^--ignore-missing/m]],
  ],
  [
    'Ist MD5 noch gut genug, um Manipulationen an Dateien zu erkennen?',
    'topical',
    [['md5sum', 'sicherheitsrelevante Zwecke']],
  ],
  ['BLAKE2-Hash mit nur 256 Bit Länge', 'how-to', [['b2sum', /^-l, --length=BITS/m]]],
  [
    'Wie wähle ich bei cksum einen anderen Algorithmus, etwa sha512?',
    'how-to',
    [['cksum', /^-a, --algorithm=TYP/m]],
  ],
  [
    'Datei in Base64 umwandeln, alles in einer Zeile ohne Umbrüche',
    'how-to',
    [['base64', /^-w, --wrap=ANZAHL/m]],
  ],
  ['base64 dekodieren', 'how-to', [['base64', /^-d, --decode/m]]],
  // processes
  [
    'Wie starte ich ein rechenintensives Programm mit niedrigerer Priorität, damit der Rechner bedienbar bleibt?',
    'how-to',
    [['nice', /^-n, --adjustment=N/m]],
  ],
  [
    'Wo landet die Ausgabe eines Programms, das ich mit nohup gestartet habe?',
    'known-item',
    [['nohup', 'nohup.out']],
  ],
  [
    'Welcher Exit-Code bedeutet, dass timeout den Befehl wegen Zeitüberschreitung abgebrochen hat?',
    'known-item',
    [['timeout', /^124 falls der BEFEHL/m]],
  ],
  [
    'Befehl hart mit KILL beenden, wenn er auf das normale Signal nach Ablauf der Zeit nicht reagiert',
    'how-to',
    [['timeout', /^-k, --kill-after=DAUER/m]],
  ],
  [
    'Programm mit einer komplett leeren Umgebung starten',
    'how-to',
    [['env', /^-i, --ignore-environment/m]],
  ],
  [
    'eine Umgebungsvariable nur für einen einzigen Befehlsaufruf entfernen',
    'how-to',
    [['env', /^-u, --unset=NAME/m]],
  ],
  [
    'Wie übergebe ich in der Shebang-Zeile mit #!/usr/bin/env mehrere Argumente?',
    'how-to',
    [['env', /^-S, --split-string=S/m]],
  ],
  [
    'Ausgabe in einer Pipe kommt nur blockweise an – wie schalte ich auf zeilenweise Pufferung um?',
    'how-to',
    [['stdbuf', /^-o, --output=MODUS/m]],
  ],
  [
    'Priorität eines schon laufenden Prozesses nachträglich herabsetzen',
    'how-to',
    [['renice', /^-p, --pid/m]],
  ],
  [
    'Wie ändere ich die Priorität aller Prozesse eines bestimmten Benutzers auf einmal?',
    'how-to',
    [['renice', /^-u, --user/m]],
  ],
  [
    'setsid soll warten, bis das Programm fertig ist, und dessen Rückgabewert liefern',
    'how-to',
    [['setsid', /^-w, --wait/m]],
  ],
  [
    'Mein Backup soll nur dann auf die Platte zugreifen, wenn sonst niemand sie braucht',
    'how-to',
    [['ionice', /^-c, --class Klasse/m]],
  ],
  ['Prozess auf bestimmte CPU-Kerne festlegen', 'how-to', [['taskset', /^-c, --cpu-list/m]]],
  [
    'Wie verhindere ich, dass ein Cronjob-Skript zweimal gleichzeitig läuft?',
    'how-to',
    [['flock', /^-n, --nb, --nonblock/m]],
  ],
  [
    'flock soll höchstens zehn Sekunden auf die Sperre warten und dann aufgeben',
    'how-to',
    [['flock', /^-w, --wait, --timeout/m]],
  ],
  // users and system
  ['eigene numerische Benutzer-ID ausgeben', 'how-to', [['id', /^-u, --user/m]]],
  [
    'In welchen Gruppen bin ich eigentlich Mitglied, mit Namen statt Nummern?',
    'how-to',
    [
      ['id', /^-G, --groups/m],
      ['id', /^-n, --name/m],
    ],
  ],
  ['Wann wurde das System zuletzt hochgefahren?', 'how-to', [['who', /^-b, --boot/m]]],
  ['aktuellen Runlevel anzeigen', 'how-to', [['who', /^-r, --runlevel/m]]],
  ['Welche Kernel-Version läuft gerade?', 'how-to', [['uname', /^-r, --kernel-release/m]]],
  [
    'Läuft mein System auf x86_64 oder ARM? Hardwarearchitektur anzeigen',
    'how-to',
    [['uname', /^-m, --machine/m]],
  ],
  [
    'letzte Anmeldungen eines Benutzers mit IP-Adresse statt Rechnername',
    'how-to',
    [['last', /^-i, --ip/m]],
  ],
  [
    'Wie sehe ich in der Anmeldehistorie auch Neustarts und das Herunterfahren?',
    'how-to',
    [['last', /^-x, --system/m]],
  ],
  ['nur die Logins seit gestern anzeigen', 'how-to', [['last', /^-s, --since Zeit/m]]],
  ['alle aktuellen Terminal-Einstellungen anzeigen', 'how-to', [['stty', /^-a, --all/m]]],
  [
    'Wie schalte ich im Terminal das Echo ab, z. B. für eine Passwortabfrage im Skript?',
    'how-to',
    [['stty', /^\[-\]echo$/m]],
  ],
  [
    'Terminal-Einstellungen sichern und später genau so wiederherstellen',
    'how-to',
    [['stty', /^-g, --save/m]],
  ],
  [
    'vollständigen Rechnernamen samt Domain (FQDN) anzeigen',
    'how-to',
    [['hostname', /^-f, --fqdn, --long/m]],
  ],
  [
    'Wie liste ich alle IP-Adressen meines Rechners auf?',
    'how-to',
    [['hostname', /^-I, --all-ip-addresses/m]],
  ],
  [
    'Was ist der Unterschied zwischen su und su -, also einer Anmelde-Shell?',
    'topical',
    [['su', /^-, -l, --login/m]],
  ],
  [
    'einen einzelnen Befehl als anderer Benutzer ausführen, ohne eine Shell zu öffnen',
    'how-to',
    [['su', /^-c, --command=Befehl/m]],
  ],
  [
    'Als root die Crontab eines anderen Benutzers bearbeiten',
    'how-to',
    [['crontab', 'Falls die Option -u angegeben ist']],
  ],
  [
    'Wer darf crontab benutzen? Wozu sind cron.allow und cron.deny da?',
    'topical',
    [['crontab', 'Falls die Datei /etc/cron.allow existiert']],
  ],
  [
    'Warum wird der letzte Eintrag meiner Crontab nie ausgeführt?',
    'known-item',
    [['crontab', 'Zeilenvorschubzeichen']],
  ],
  [
    'Kernel-Meldungen mit lesbarer Uhrzeit statt Sekunden seit dem Start',
    'how-to',
    [['dmesg', /^-T, --ctime/m]],
  ],
  [
    'Wie verfolge ich neue Kernel-Meldungen live, etwa beim Einstecken eines USB-Sticks?',
    'how-to',
    [['dmesg', /^-w, --follow/m]],
  ],
  [
    'nur Fehler und Warnungen aus dem Kernel-Log anzeigen',
    'how-to',
    [['dmesg', /^-l, --level Liste/m]],
  ],
  ['Kernel-Ringpuffer leeren', 'how-to', [['dmesg', /^-C, --clear/m]]],
  // search and compare
  [
    'rekursiv in allen Dateien eines Ordners nach einem Wort suchen',
    'how-to',
    [['grep', /^-r, --recursive/m]],
  ],
  [
    'Wie lasse ich mir von grep nur die Namen der Dateien mit Treffer ausgeben?',
    'how-to',
    [['grep', /^-l, --files-with-matches/m]],
  ],
  [
    'alle Zeilen anzeigen, die ein Muster NICHT enthalten',
    'how-to',
    [['grep', /^-v, --invert-match/m]],
  ],
  [
    'Wie zeige ich bei jedem Treffer auch drei Zeilen davor und danach?',
    'how-to',
    [['grep', /^-C \[ZAHL\], -ZAHL, --context/m]],
  ],
  ['beim rekursiven Suchen nur *.py-Dateien durchsuchen', 'how-to', [['grep', /^--include=GLOB/m]]],
  [
    'nur ganze Wörter finden, nicht "main" in "domain"',
    'how-to',
    [['grep', /^-w, --word-regexp/m]],
  ],
  [
    'Was bedeutet es, wenn grep mit Status 1 endet?',
    'known-item',
    [['grep', 'wenn keine Zeilen ausgewählt wurden']],
  ],
  [
    'Unterschiede zweier Dateien als Patch im unified-Format ausgeben',
    'how-to',
    [['diff', /^-u, -U ANZAHL, --unified/m]],
  ],
  ['zwei Verzeichnisse rekursiv vergleichen', 'how-to', [['diff', /^-r, --recursive/m]]],
  [
    'Wie vergleiche ich zwei Dateien und ignoriere dabei Unterschiede bei Leerzeichen?',
    'how-to',
    [
      ['diff', /^-w, --ignore-all-space/m],
      ['diff', /^-b, --ignore-space-change/m],
    ],
  ],
  ['diff in zwei Spalten nebeneinander', 'how-to', [['diff', /^-y, --side-by-side/m]]],
  [
    'nur wissen, ob sich zwei Dateien unterscheiden, nicht wie',
    'how-to',
    [['diff', /^-q, --brief/m]],
  ],
  [
    'Wie liste ich alle Bytes auf, in denen sich zwei Binärdateien unterscheiden?',
    'how-to',
    [['cmp', /^-l, --verbose/m]],
  ],
  [
    'lesbare Texte mit mindestens acht Zeichen aus einer Binärdatei herausziehen',
    'how-to',
    [['strings', /^-n min-länge/m]],
  ],
  [
    'strings soll zu jedem Fund die Position in der Datei in Hex mit ausgeben',
    'how-to',
    [['strings', /^-t Basis/m]],
  ],
  // compression and archives
  [
    'Wie komprimiere ich mit gzip, ohne dass die Originaldatei verschwindet?',
    'how-to',
    [['gzip', /^-k --keep/m]],
  ],
  ['Kompressionsrate einer .gz-Datei anzeigen', 'how-to', [['gzip', /^-l --list/m]]],
  ['prüfen, ob ein gzip-Archiv beschädigt ist', 'how-to', [['gzip', /^-t --test/m]]],
  [
    'alle Dateien in einem Verzeichnisbaum einzeln mit gzip komprimieren',
    'how-to',
    [['gzip', /^-r --recursive/m]],
  ],
  [
    'gzip: schneller packen oder besser packen, was bewirken -1 und -9?',
    'topical',
    [['gzip', /^-# --fast --best/m]],
  ],
  [
    'Wie entpacke ich eine große .bz2-Datei auf einem Rechner mit sehr wenig Arbeitsspeicher?',
    'how-to',
    [['bzip2', /^-s --small/m]],
  ],
  [
    'Daten aus einer beschädigten bz2-Datei retten',
    'how-to',
    [['bzip2', 'bzip2recover Dateiname']],
  ],
  [
    'tar.gz-Archiv in ein anderes Verzeichnis entpacken',
    'how-to',
    [
      ['tar', /^-C, --directory=VERZ/m],
      ['tar', /^-x, --extract, --get/m],
    ],
  ],
  [
    'Wie sehe ich, was in einem Tar-Archiv steckt, ohne es auszupacken?',
    'how-to',
    [['tar', /^-t, --list/m]],
  ],
  [
    'beim Erstellen eines Archivs den Ordner node_modules auslassen',
    'how-to',
    [['tar', /^--exclude=MUSTER/m]],
  ],
  [
    'Wie lasse ich beim Entpacken die oberste Verzeichnisebene des Archivs weg?',
    'how-to',
    [['tar', /^--strip-components=ANZAHL/m]],
  ],
  ['tar mit xz-Kompression', 'how-to', [['tar', /^-J, --xz/m]]],
  [
    'inkrementelles Backup mit tar, das nur Änderungen seit dem letzten Lauf sichert',
    'how-to',
    [['tar', /^-g, --listed-incremental=DATEI/m]],
  ],
  [
    'Dateien nach dem Einpacken ins Archiv automatisch löschen',
    'how-to',
    [['tar', /^--remove-files/m]],
  ],
  // (topical and known-item questions, written with the others)
  [
    'Was bedeutet die Schreibweise 0-10:2 in einer CPU-Liste für taskset?',
    'known-item',
    [['taskset', /^--cpu-list 0-10:2/m]],
  ],
  [
    'ionice Scheduling-Klassen: was ist der Unterschied zwischen Realtime, Best-Effort und Idle?',
    'topical',
    [['ionice', 'Die Scheduling-Klasse »Realtime«']],
  ],
  [
    'Funktionieren Sperren mit flock auch auf einer NFS-Freigabe?',
    'topical',
    [['flock', 'NFS und CIFS']],
  ],
  [
    'Woher kommt die Kopfzeile DO NOT EDIT THIS FILE, wenn ich meine Crontab auflisten lasse?',
    'known-item',
    [['crontab', 'DO NOT EDIT THIS FILE']],
  ],
  [
    'Darf ich die Dateien unter /var/spool/cron/crontabs direkt mit dem Editor ändern?',
    'topical',
    [['crontab', 'Benutzern ist es nicht erlaubt']],
  ],
  [
    'dd soll die Zieldatei nicht abschneiden, sondern nur einen Teil darin überschreiben',
    'how-to',
    [['dd', /^notrunc$/m]],
  ],
  [
    'Was macht tee, wenn das Schreiben in eine der Ausgaben fehlschlägt, etwa bei einer kaputten Pipe?',
    'topical',
    [
      ['tee', /^--output-error\[=MODUS\]/m],
      ['tee', 'warn-nopipe'],
    ],
  ],
  [
    'Unterschied zwischen grep -r und -R bei symbolischen Links',
    'topical',
    [['grep', /^-R, --dereference-recursive/m]],
  ],
].map(([text, type, evidence]) => ({ text, type, evidence }));
