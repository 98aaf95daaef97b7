#!/usr/bin/env python3
"""Every folder is one namespace: a file in kademlia/store/ declares its code in
skillnode::kademlia::store (a detail namespace nested under it, such as
skillnode::kademlia::wire::wire_internal, is fine; so is a file with no namespace, such as a
main.cpp). The one exception is a grouping: a sub-folder that only sorts a large folder's files
by responsibility (GROUPINGS), whose files stay in the parent folder's namespace, so that
splitting a folder does not rename what every user of it calls. Prints each file that opens
another skillnode namespace and exits 1.

Usage: check_namespaces.py ROOT [FOLDER...]   (folders relative to ROOT; default: the product's)
       check_namespaces.py --selftest          (proves the check can fail)
"""
import os
import re
import sys
import tempfile

PRODUCT = ('bootstrap', 'discovery', 'kademlia', 'node', 'sim', 'transport')
# Sub-folders whose files belong to their parent folder's namespace (README "Layout").
GROUPINGS = ('kademlia/lookup', 'kademlia/store/record', 'kademlia/store/holder',
             'kademlia/store/reader', 'discovery/registry', 'discovery/search/words')
OPENING = re.compile(r'^namespace (skillnode(?:::\w+)*) \{', re.MULTILINE)


def expected_namespace(relative_folder):
    if relative_folder.replace(os.sep, '/') in GROUPINGS:
        relative_folder = os.path.dirname(relative_folder)
    return '::'.join(['skillnode'] + relative_folder.split(os.sep))


def problems(root, folders):
    found = []
    for top in folders:
        for folder, _, names in os.walk(os.path.join(root, top)):
            want = expected_namespace(os.path.relpath(folder, root))
            for name in sorted(names):
                if not name.endswith(('.h', '.cpp')):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding='utf-8') as source:
                    for opened in OPENING.findall(source.read()):
                        if opened != want and not opened.startswith(want + '::'):
                            found.append(f'{os.path.relpath(path, root)}: namespace {opened}, '
                                         f'but its folder is {want}')
    return found


def selftest():
    cases = {  # file -> (contents, must be reported)
        'kademlia/store/good.h': ('namespace skillnode::kademlia::store {\n}\n', False),
        'kademlia/store/detail.h':
            ('namespace skillnode::kademlia::store::detail {\n}\n', False),
        'kademlia/store/parent.h': ('namespace skillnode::kademlia {\n}\n', True),
        # A grouping's files are in the parent folder's namespace, and only in it.
        'kademlia/store/record/grouped.h': ('namespace skillnode::kademlia::store {\n}\n', False),
        'kademlia/store/record/wider.h': ('namespace skillnode::kademlia {\n}\n', True),
        # Any other sub-folder is its own namespace.
        'kademlia/store/terms/parents.h': ('namespace skillnode::kademlia::store {\n}\n', True),
        'kademlia/wire/sibling.cpp': ('namespace skillnode::kademlia::store {\n}\n', True),
        'transport/top.cpp': ('namespace skillnode {\n}\n', True),
        'sim/main.cpp': ('int main() { return 0; }\n', False),
    }
    with tempfile.TemporaryDirectory() as root:
        for path, (text, _) in cases.items():
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), 'w', encoding='utf-8') as out:
                out.write(text)
        reported = {line.split(':')[0] for line in problems(root, ['kademlia', 'sim',
                                                                    'transport'])}
    wrong = [path for path, (_, bad) in cases.items() if (path in reported) != bad]
    for path in wrong:
        print(f'selftest: {path} was {"not " if path not in reported else ""}reported')
    print(f'selftest: {len(cases) - len(wrong)} of {len(cases)} cases as expected')
    return 1 if wrong else 0


def main(argv):
    if argv[1:] == ['--selftest']:
        return selftest()
    if len(argv) < 2:
        print(__doc__)
        return 2
    found = problems(argv[1], argv[2:] or PRODUCT)
    for line in found:
        print(line)
    print(f'{len(found)} files outside their folder\'s namespace')
    return 1 if found else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
