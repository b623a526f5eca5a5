# @kizu[ask]: a real scar at the top
variable "region" {
  type    = string
  default = "eu-west-1"
}

locals {
  policy = <<-EOT
    {
      "a": 1
    # @kizu[ask]: not a scar, inside a heredoc
    }
  EOT
  tags = {
    // @kizu[free]: a real slash scar
    name = "corpus"
  }
}

/* a block comment
# @kizu[ask]: not a scar, inside a block comment
*/
resource "null_resource" "x" {
  triggers = {
    region = var.region,
    policy = local.policy
  }
}
