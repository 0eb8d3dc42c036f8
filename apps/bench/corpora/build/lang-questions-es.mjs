// Spanish questions added for issue 42 (lang-es), written by hand after reading the passages of the
// pages added then. Each: [text, type, evidence], evidence as in lang-questions.mjs ([page, anchor]).
// The builder marks them with the fresh split (lib.mjs `fresh`): keep their order.
export const NEW_ES = [
  // text filters
  [
    '¿Cómo saco solo la tercera columna de un CSV separado por punto y coma?',
    'how-to',
    [
      ['cut', /^-d, --delimiter/m],
      ['cut', /^-f, --fields/m],
    ],
  ],
  [
    'quedarme con los primeros 10 caracteres de cada línea',
    'how-to',
    [['cut', /^-c, --characters/m]],
  ],
  [
    '¿Cómo paso un texto entero a mayúsculas desde la terminal?',
    'how-to',
    [['tr', /^\[:upper:\]/m]],
  ],
  ['borrar todos los dígitos de un texto con tr', 'how-to', [['tr', /^-d, --delete/m]]],
  [
    '¿Cómo junto varios espacios seguidos en uno solo?',
    'how-to',
    [['tr', /^-s, --squeeze-repeats/m]],
  ],
  [
    '¿Cómo cuento cuántas veces aparece cada línea en una lista?',
    'how-to',
    [['uniq', /^-c, --count/m]],
  ],
  ['mostrar solo las líneas que están repetidas', 'how-to', [['uniq', /^-d, --repeated/m]]],
  ['contar las líneas de un archivo', 'how-to', [['wc', /^-l, --lines/m]]],
  [
    '¿Cómo sé cuánto mide la línea más larga de un fichero de texto?',
    'how-to',
    [['wc', /^-L, --max-line-length/m]],
  ],
  [
    '¿Cómo muestro un archivo entero menos sus últimas cinco líneas?',
    'how-to',
    [['head', /^-n, --lines/m]],
  ],
  ['ver solo los primeros 100 bytes de un fichero', 'how-to', [['head', /^-c, --bytes/m]]],
  [
    '¿Cómo uno todas las líneas de un archivo en una sola, separadas por comas?',
    'how-to',
    [
      ['paste', /^-s, --serial/m],
      ['paste', /^-d, --delimiters/m],
    ],
  ],
  [
    'combinar dos ficheros de texto por un campo común, como un JOIN de SQL',
    'known-item',
    [['join', /^-1 CAMPO|^-j CAMPO/m]],
  ],
  [
    '¿Cómo hago que join muestre también las líneas que no tienen pareja en el otro archivo?',
    'how-to',
    [['join', /^-a NUM/m]],
  ],
  ['¿Qué líneas tienen en común dos listas ordenadas?', 'how-to', [['comm', /^comm -12/m]]],
  [
    'líneas que solo están en el primero de dos ficheros ordenados',
    'how-to',
    [
      ['comm', /^-2 /m],
      ['comm', /^-3 /m],
    ],
  ],
  ['¿Cómo numero también las líneas vacías con nl?', 'how-to', [['nl', /^-b, --body-numbering/m]]],
  ['empezar la numeración de líneas en 100', 'how-to', [['nl', /^-v, --starting-line-number/m]]],
  [
    '¿Cómo invierto el orden de registros separados por otro carácter que no sea el salto de línea?',
    'how-to',
    [['tac', /^-s, --separator/m]],
  ],
  ['¿Cómo parto un archivo enorme en trozos de 100 MB?', 'how-to', [['split', /^-b, --bytes/m]]],
  [
    'que los trozos de split lleven sufijos numéricos en vez de letras',
    'how-to',
    [
      ['split', /^-d emplea sufijos numéricos/m],
      ['split', /^--numeric-suffixes/m],
    ],
  ],
  ['dividir un archivo en cuatro partes iguales', 'how-to', [['split', /^-n, --number/m]]],
  [
    'ver un archivo binario en hexadecimal',
    'how-to',
    [
      ['od', /^-t, --format/m],
      ['od', /^-x /m],
    ],
  ],
  [
    '¿Cómo leo con od solo unos bytes a partir de una posición concreta?',
    'how-to',
    [
      ['od', /^-j, --skip-bytes/m],
      ['od', /^-N, --read-bytes/m],
    ],
  ],
  [
    'generar los números del 1 al 100 con ceros a la izquierda, todos del mismo ancho',
    'how-to',
    [['seq', /^-w, --equal-width/m]],
  ],
  [
    '¿Cómo hago que seq separe los números con comas en lugar de saltos de línea?',
    'how-to',
    [['seq', /^-s, --separator/m]],
  ],
  ['sacar tres líneas al azar de un archivo', 'how-to', [['shuf', /^-n, --head-count/m]]],
  [
    '¿Cómo tiro un dado en la shell, un número aleatorio del 1 al 6?',
    'how-to',
    [['shuf', /^-i, --input-range/m]],
  ],
  [
    'ver la salida en pantalla y a la vez añadirla a un archivo sin sobrescribirlo',
    'how-to',
    [['tee', /^-a, --append/m]],
  ],
  [
    '¿Cómo convierto un número de bytes en algo legible como 1.5K o 3M?',
    'how-to',
    [['numfmt', /^--to=/m]],
  ],
  ['pasar "10K" o "2G" otra vez a un número normal', 'how-to', [['numfmt', /^--from=/m]]],
  [
    'cortar líneas largas a 80 columnas pero sin partir palabras',
    'how-to',
    [['fold', /^-s, --spaces/m]],
  ],
  [
    'reformatear los párrafos de un texto a 60 caracteres de ancho',
    'how-to',
    [['fmt', /^-w, --width/m]],
  ],
  [
    '¿Cómo cambio solo los tabuladores del principio de la línea por espacios?',
    'how-to',
    [['expand', /^-i, --initial/m]],
  ],
  ['convertir espacios en tabuladores', 'how-to', [['unexpand', /^-a, --all/m]]],
  [
    '¿Cómo divido un archivo en varios cada vez que aparece una línea que coincide con un patrón?',
    'how-to',
    [['csplit', /^\/REGEXP\/\[DESPLAZAMIENTO\]/m]],
  ],
  [
    'que csplit no borre los trozos ya creados si falla',
    'how-to',
    [['csplit', /^-k, --keep-files/m]],
  ],
  [
    '¿Cómo imprimo un texto en varias columnas con pr?',
    'how-to',
    [['pr', /^-COLUMNAS, --columns/m]],
  ],
  ['mostrar dos archivos en paralelo, uno en cada columna', 'how-to', [['pr', /^-m, --merge/m]]],
  [
    'poner una cabecera propia en cada página al paginar un texto para imprimir',
    'how-to',
    [['pr', /^-h, --header/m]],
  ],
  // files
  ['que mv pregunte antes de sobrescribir un archivo', 'how-to', [['mv', /^-i, --interactive/m]]],
  [
    '¿Cómo hago que mv guarde una copia de seguridad del archivo que va a reemplazar?',
    'how-to',
    [['mv', /^--backup/m]],
  ],
  [
    'indicar primero el directorio de destino al mover archivos, por ejemplo con xargs',
    'how-to',
    [['mv', /^-t, --target-directory/m]],
  ],
  ['¿Cómo borro un archivo cuyo nombre empieza por un guion?', 'how-to', [['rm', 'rm -- -fu']]],
  ['que rm pregunte una sola vez al borrar muchos archivos', 'how-to', [['rm', /^-I /m]]],
  [
    '¿Los archivos borrados con rm se pueden recuperar?',
    'topical',
    [['rm', 'podría ser posible recuperar']],
  ],
  [
    '¿Cómo pongo a un archivo una fecha de modificación concreta del pasado?',
    'how-to',
    [
      ['touch', /^-t /m],
      ['touch', /^-d, --date/m],
    ],
  ],
  ['copiar las marcas de tiempo de otro archivo', 'how-to', [['touch', /^-r, --reference/m]]],
  ['que touch no cree el archivo si no existe', 'how-to', [['touch', /^-c, --no-create/m]]],
  ['mostrar los permisos de un archivo en octal, tipo 644', 'how-to', [['stat', /^%a .*octal/m]]],
  [
    '¿Cómo consulto con stat datos del sistema de ficheros en lugar del archivo?',
    'how-to',
    [['stat', /^-f, --file-system/m]],
  ],
  [
    '¿Adónde apunta de verdad un enlace simbólico? resolver la ruta completa',
    'how-to',
    [['readlink', /^-f, --canonicalize/m]],
  ],
  [
    'calcular la ruta relativa de un directorio a otro',
    'how-to',
    [['realpath', /^--relative-to/m]],
  ],
  [
    'copiar un programa a /usr/local/bin poniéndole ya permisos 755 y propietario',
    'how-to',
    [
      ['install', /^-m, --mode/m],
      ['install', /^-o, --owner/m],
    ],
  ],
  [
    '¿Cómo creo de forma segura un directorio temporal en un script?',
    'how-to',
    [['mktemp', /^-d, --directory/m]],
  ],
  [
    '¿Cómo veo el progreso de dd mientras grabo una ISO en un pendrive?',
    'how-to',
    [['dd', /^status=/m]],
  ],
  [
    'dd ya está corriendo: ¿cómo le pido que muestre cuánto lleva sin pararlo?',
    'how-to',
    [['dd', 'USR1']],
  ],
  ['copiar con dd solo los primeros 10 bloques', 'how-to', [['dd', /^count=/m]]],
  [
    'borrar un archivo de forma que no se pueda recuperar',
    'how-to',
    [['shred', /^-u desubica y elimina/m]],
  ],
  [
    '¿Sirve de algo shred en un sistema de ficheros con journal?',
    'topical',
    [['shred', /^PRECAUCIÓN|^ATENCIÓN|^CUIDADO/m]],
  ],
  ['vaciar un fichero de log sin borrarlo', 'how-to', [['truncate', /^-s, --size/m]]],
  [
    '¿Cómo cambio el propietario y el grupo de todo un árbol de directorios?',
    'how-to',
    [['chown', /^-R, --recursive/m]],
  ],
  [
    'cambiar el dueño solo de los archivos que ahora pertenecen a cierto usuario',
    'how-to',
    [['chown', /^--from=/m]],
  ],
  [
    'cambiar el grupo del propio enlace simbólico, no del archivo al que apunta',
    'how-to',
    [['chgrp', /^-h, --no-dereference/m]],
  ],
  [
    '¿Cómo le quito la extensión .txt a un nombre de archivo en un script?',
    'how-to',
    [['basename', /^-s, --suffix/m]],
  ],
  [
    'sacar solo la parte del directorio de una ruta completa',
    'how-to',
    [['dirname', 'dirname /usr/bin/']],
  ],
  [
    '¿Cómo creo una tubería con nombre para comunicar dos procesos?',
    'how-to',
    [['mkfifo', /^-m, --mode/m]],
  ],
  [
    'crear a mano un archivo de dispositivo de bloques o de caracteres',
    'how-to',
    [['mknod', /^b /m]],
  ],
  [
    '¿Cómo me aseguro de que los datos de un archivo se han escrito al disco antes de desenchufar?',
    'how-to',
    [['sync', /^-d, --data/m]],
  ],
  // checksums
  [
    '¿Cómo compruebo una ISO descargada contra el fichero SHA256SUMS?',
    'how-to',
    [['sha256sum', /^-c, --check/m]],
  ],
  [
    'al verificar sumas, ignorar los archivos que no he descargado',
    'how-to',
    [['md5sum', /^--ignore-missing/m]],
  ],
  [
    '¿Sigue siendo seguro MD5 para detectar archivos manipulados?',
    'topical',
    [['md5sum', 'No es recomendable utilizar MD5']],
  ],
  ['hash BLAKE2 de 256 bits', 'how-to', [['b2sum', /^-l, --lenght=BITS/m]]],
  [
    '¿Cómo elijo otro algoritmo en cksum, por ejemplo sha512?',
    'how-to',
    [['cksum', /^-a, --algoritmo=TIPO/m]],
  ],
  [
    'codificar un archivo en base64 en una sola línea, sin saltos',
    'how-to',
    [['base64', /^-w, --wrap/m]],
  ],
  ['decodificar base64', 'how-to', [['base64', /^-d, --decode/m]]],
  // processes and shell helpers
  [
    '¿Cómo lanzo un programa pesado con menos prioridad para que el equipo siga respondiendo?',
    'how-to',
    [['nice', /^-n, --adjustment/m]],
  ],
  ['¿Dónde va la salida de un programa lanzado con nohup?', 'known-item', [['nohup', 'nohup.out']]],
  [
    '¿Qué código de salida devuelve timeout cuando corta la orden por tiempo?',
    'known-item',
    [['timeout', /^124 /m]],
  ],
  [
    'matar con KILL una orden que no hace caso a la señal normal cuando se le acaba el tiempo',
    'how-to',
    [['timeout', /^-k, --kill-after/m]],
  ],
  [
    'ejecutar un programa con el entorno completamente vacío',
    'how-to',
    [['env', /^-i, --ignore-environment/m]],
  ],
  ['quitar una variable de entorno solo para una ejecución', 'how-to', [['env', /^-u, --unset/m]]],
  [
    '¿Cómo paso varios argumentos en la línea shebang con #!/usr/bin/env?',
    'how-to',
    [['env', /^-S, --split-string/m]],
  ],
  [
    'la salida por una tubería llega a bloques: ¿cómo fuerzo un búfer por líneas?',
    'how-to',
    [['stdbuf', /^-o, --output/m]],
  ],
  [
    'bajar la prioridad de un proceso que ya está en marcha',
    'how-to',
    [['renice', /^-n, --priority/m]],
  ],
  [
    'ejecutar un programa en una sesión nueva, desligado de la terminal',
    'how-to',
    [['setsid', /^-f, --fork/m]],
  ],
  [
    '¿Cómo hago que un script espere un minuto y medio?',
    'how-to',
    [['sleep', /^Hace una pausa de NÚMERO segundos/m]],
  ],
  [
    '¿Cuántos procesadores tiene la máquina? contarlos desde la shell',
    'how-to',
    [['nproc', /^--all /m]],
  ],
  [
    'ver el valor de una sola variable de entorno',
    'how-to',
    [['printenv', 'Muestra los valores de las VARIABLE(s) de entorno']],
  ],
  [
    '¿Cómo compruebo en un script si un archivo existe y es un directorio?',
    'how-to',
    [['test', /^-d FICHERO/m]],
  ],
  ['comprobar si una cadena está vacía en bash', 'how-to', [['test', /^-z CADENA/m]]],
  [
    '¿Cómo comparo si un archivo es más nuevo que otro en un script?',
    'how-to',
    [['test', /-nt FICHERO2/]],
  ],
  [
    'hacer cuentas enteras en la shell sin bash, con expr',
    'how-to',
    [['expr', /^suma aritmética de ARG1 y ARG2/m]],
  ],
  ['obtener la longitud de una cadena con expr', 'how-to', [['expr', /^length CADENA/m]]],
  [
    '¿Cómo imprimo un número con dos decimales o relleno de ceros en la shell?',
    'how-to',
    [['printf', 'todas las especificaciones de formato en C']],
  ],
  [
    '¿Cómo hago que echo interprete \\n y \\t como salto de línea y tabulador?',
    'how-to',
    [['echo', /^-e /m]],
  ],
  ['que echo no añada el salto de línea final', 'how-to', [['echo', /^-n /m]]],
  // users and system
  ['ver mi UID numérico', 'how-to', [['id', /^-u, --user/m]]],
  [
    '¿En qué grupos estoy, con los nombres y no los números?',
    'how-to',
    [
      ['id', /^-G, --groups/m],
      ['id', /^-n, --name/m],
    ],
  ],
  ['¿Cuándo arrancó el sistema por última vez?', 'how-to', [['who', /^-b, --boot/m]]],
  ['ver el nivel de ejecución actual', 'how-to', [['who', /^-r, --runlevel/m]]],
  [
    'información de un usuario conectado tipo finger, con su directorio personal y shell',
    'how-to',
    [['pinky', /^-l /m]],
  ],
  [
    '¿Cómo sé desde un script si la entrada estándar es una terminal?',
    'how-to',
    [['tty', /^-s, --silent/m]],
  ],
  ['¿Qué versión del núcleo estoy usando?', 'how-to', [['uname', /^-r, --kernel-release/m]]],
  ['¿Mi sistema es x86_64 o ARM? ver la arquitectura', 'how-to', [['uname', /^-m, --machine/m]]],
  ['últimos inicios de sesión de un usuario mostrando la IP', 'how-to', [['last', /^-i, --ip/m]]],
  [
    '¿Cómo veo también los reinicios y apagados en el historial de sesiones?',
    'how-to',
    [['last', /^-x, --system/m]],
  ],
  [
    '¿Cuántas horas ha estado conectado cada usuario?',
    'how-to',
    [['ac', /^-p, --individual-totals/m]],
  ],
  ['tiempo de conexión total desglosado por días', 'how-to', [['ac', /^-d, --daily-totals/m]]],
  [
    '¿Por qué crece tanto el archivo wtmp y qué hago con él?',
    'topical',
    [['ac', 'el archivo wtmp se puede incrementar']],
  ],
  [
    '¿Qué órdenes ha ejecutado un usuario concreto, según la contabilidad de procesos?',
    'how-to',
    [['lastcomm', /^--user nombre/m]],
  ],
  [
    '¿Qué significan las letras S, F, C, D y X que salen junto a cada orden en lastcomm?',
    'known-item',
    [['lastcomm', 'S -- orden ejecutada por el administrador']],
  ],
  [
    'resumen del uso de CPU por usuario a partir de la contabilidad de procesos',
    'how-to',
    [['sa(8)', /^-m, --user-summary/m]],
  ],
  [
    'ordenar el informe de contabilidad por uso de CPU y memoria',
    'how-to',
    [['sa(8)', /^-k, --sort-cpu-avmem/m]],
  ],
  [
    '¿Cómo activo o desactivo la contabilidad de procesos del núcleo?',
    'how-to',
    [['accton(8)', 'accton archivo activa la contabilidad']],
  ],
  ['ver todos los ajustes actuales de la terminal', 'how-to', [['stty', /^-a, --all/m]]],
  [
    '¿Cómo desactivo el eco en la terminal, por ejemplo para pedir una contraseña en un script?',
    'how-to',
    [['stty', /^\[-\]echo$/m]],
  ],
  [
    'guardar la configuración de la terminal y restaurarla después',
    'how-to',
    [['stty', /^-g, --save/m]],
  ],
  [
    '¿Cómo cargo en bash los colores de ls definidos en un archivo propio?',
    'how-to',
    [['dircolors', /^-b, --sh, --bourne-shell/m]],
  ],
  [
    'ver la configuración de colores por defecto de ls para editarla',
    'how-to',
    [['dircolors', /^-p, --print-database/m]],
  ],
  [
    'ejecutar una shell con otro directorio raíz, como usuario y grupo concretos',
    'how-to',
    [['chroot(8)', /^--userspec=USUARIO:GRUPO/m]],
  ],
  // search and compare
  [
    '¿Cómo hago que grep solo me diga los nombres de los archivos que coinciden?',
    'how-to',
    [['grep', /^-l, --files-with-matches/m]],
  ],
  ['mostrar las líneas que NO contienen un patrón', 'how-to', [['grep', /^-v, --invert-match/m]]],
  [
    '¿Cómo veo tres líneas antes y después de cada coincidencia?',
    'how-to',
    [['grep', /^-C NÚM, -NÚM, --context/m]],
  ],
  [
    'buscar palabras completas, que "main" no encuentre "domain"',
    'how-to',
    [['grep', /^-w, --word-regexp/m]],
  ],
  ['contar cuántas líneas coinciden en cada archivo', 'how-to', [['grep', /^-c, --count/m]]],
  ['buscar sin distinguir mayúsculas y minúsculas', 'how-to', [['grep', /^-i, --ignore-case/m]]],
  [
    'sacar solo el trozo que coincide con la expresión regular, no la línea entera',
    'how-to',
    [['grep', /^-o, --only-matching/m]],
  ],
  ['¿Qué significa que grep termine con estado 1?', 'known-item', [['grep', /^ESTADO DE SALIDA/m]]],
  [
    'diferencias entre dos archivos en formato unificado para un parche',
    'how-to',
    [['diff', /^-u, -U NÚM, --unified/m]],
  ],
  ['comparar dos directorios de forma recursiva', 'how-to', [['diff', /^-r, --recursive/m]]],
  [
    '¿Cómo comparo dos archivos sin tener en cuenta los cambios de espacios?',
    'how-to',
    [
      ['diff', /^-w, --ignore-all-space/m],
      ['diff', /^-b, --ignore-space-change/m],
    ],
  ],
  ['diff lado a lado en dos columnas', 'how-to', [['diff', /^-y, --side-by-side/m]]],
  // compression and logs
  [
    '¿Cómo descomprimo un .bz2 grande en una máquina con muy poca memoria?',
    'how-to',
    [['bzip2', /^-s --small/m]],
  ],
  ['recuperar datos de un archivo bz2 dañado', 'how-to', [['bzip2', /^bzip2recover archivo$/m]]],
  [
    'comprimir con bzip2 sin que desaparezca el archivo original',
    'how-to',
    [['bzip2', /^-k --keep/m]],
  ],
  [
    'comprobar la integridad de un archivo .bz2 sin descomprimirlo',
    'how-to',
    [['bzip2', /^-t --test/m]],
  ],
  [
    '¿Cómo hago que logrotate guarde solo las últimas 5 copias de un log?',
    'how-to',
    [['logrotate(8)', /^rotate veces/m]],
  ],
  [
    'rotar un log cuando pase de 100 MB aunque no haya pasado una semana',
    'how-to',
    [['logrotate(8)', /^maxsize tamaño/m]],
  ],
  ['forzar la rotación de los logs ahora mismo', 'how-to', [['logrotate(8)', /^-f, --force/m]]],
  [
    'probar la configuración de logrotate sin tocar ningún archivo',
    'how-to',
    [['logrotate(8)', /^-d, --debug/m]],
  ],
  [
    '¿Cómo roto un log que un programa mantiene abierto sin reiniciarlo, copiándolo y vaciándolo?',
    'how-to',
    [['logrotate(8)', /^copytruncate/m]],
  ],
  [
    'comprimir los logs antiguos pero dejar sin comprimir el más reciente',
    'how-to',
    [['logrotate(8)', /^delaycompress/m]],
  ],
  [
    'ejecutar una orden después de rotar, por ejemplo recargar el servicio',
    'how-to',
    [['logrotate(8)', /^postrotate\nscript\nendscript\. El script se ejecuta después de rotar/m]],
  ],
  // network
  [
    '¿Cómo veo qué puertos están escuchando y qué programa los tiene abiertos?',
    'how-to',
    [
      ['netstat(8)', /^-l, --listening/m],
      ['netstat(8)', /^-p, --program/m],
    ],
  ],
  ['ver la tabla de rutas con netstat', 'how-to', [['netstat(8)', /^--route, -r/m]]],
  ['estadísticas de red por protocolo', 'how-to', [['netstat(8)', /^--statistics, -s/m]]],
  [
    '¿Qué significan los estados TIME_WAIT o CLOSE_WAIT de una conexión?',
    'known-item',
    [['netstat(8)', /^TIME_WAIT/m]],
  ],
  ['¿Cómo cambio la MTU de una interfaz de red?', 'how-to', [['ifconfig(8)', /^mtu N/m]]],
  [
    'activar o desactivar una tarjeta de red desde la línea de órdenes',
    'how-to',
    [
      ['ifconfig(8)', /^up /m],
      ['ifconfig(8)', /^down /m],
    ],
  ],
  [
    '¿Cómo cambio la dirección MAC de la interfaz?',
    'how-to',
    [['ifconfig(8)', /^hw class address/m]],
  ],
  ['ver también las interfaces que están desactivadas', 'how-to', [['ifconfig(8)', /^-a /m]]],
  [
    '¿Cómo añado una puerta de enlace por defecto?',
    'how-to',
    [['route(8)', 'route add default gw']],
  ],
  ['borrar la ruta por defecto actual', 'how-to', [['route(8)', /^route del default/m]]],
  [
    'añadir una ruta a una red concreta con su máscara',
    'how-to',
    [['route(8)', /^route add -net 192\.56\.76\.0/m]],
  ],
  [
    'bloquear una ruta para que los paquetes hacia esa red se rechacen',
    'how-to',
    [['route(8)', /^reject /m]],
  ],
  [
    '¿Qué significan las banderas U, G y H en la tabla de rutas?',
    'known-item',
    [['route(8)', /^G \(usa un gateway\)/m]],
  ],
  [
    '¿Cómo veo todas las direcciones IP de mi máquina?',
    'how-to',
    [['hostname', /^-I, --all-ip-addresses/m]],
  ],
  [
    'mostrar el nombre completo del equipo con su dominio (FQDN)',
    'how-to',
    [['hostname', /^-f, --fqdn/m]],
  ],
  // topical questions, written with the others
  [
    '¿Quién crea y mantiene el archivo wtmp del que salen las estadísticas de conexión?',
    'topical',
    [['ac', 'El archivo de registro wtmp está gestionado por init']],
  ],
  [
    'logrotate: diferencia entre crear un log nuevo tras rotar y copiar y truncar el original',
    'topical',
    [
      ['logrotate(8)', /^create permisos propietario grupo/m],
      ['logrotate(8)', /^copytruncate/m],
    ],
  ],
  [
    'temporizadores de los sockets en netstat: qué quieren decir on, off y keepalive',
    'topical',
    [['netstat(8)', /^off No existe temporizador/m]],
  ],
  [
    '¿En qué algoritmo se basa bzip2 y por qué comprime más que gzip?',
    'topical',
    [['bzip2', 'bzip2 comprime archivos utilizando el algoritmo']],
  ],
  [
    'expresiones regulares básicas frente a extendidas en grep',
    'topical',
    [['grep', /^Expresiones Regulares Básicas y Ampliadas/m]],
  ],
  [
    '¿Cómo funciona la prioridad de planificación de nice y qué valores admite?',
    'topical',
    [['nice', 'Ejecuta ORDEN con la prioridad ajustada']],
  ],
].map(([text, type, evidence]) => ({ text, type, evidence }));
