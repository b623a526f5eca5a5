// Objective-C multi-line tokens.
#import <Foundation/Foundation.h>

#define GREETING @"hello " \
    @"world"

static NSString *const kText = @"one \
// @kizu[ask]: not a scar, inside a continued string \
two";

/* a block comment
// @kizu[ask]: not a scar, inside a block comment
*/
// @kizu[ask]: a real scar above an interface
@interface Point : NSObject
@property (nonatomic) int x;
@end

@implementation Point
- (NSString *)describeWith:(NSString *)prefix
                 separator:(NSString *)sep {
    // @kizu[reject]: a real scar in a method
    return [NSString stringWithFormat:@"%@%@%d%@", prefix, sep, self.x, kText];
}
@end
